/**
 * One typed client of the API, used by the web app (browser session, `/json`), the end-to-end
 * tests and the bench (API keys, `/api/v1`). A method per call the callers make; anything else
 * goes through `call`. Only the transport differs between callers.
 */
import { readEnvelope, Transport, type CallOptions, type ClientOptions, type Params } from './http';
import type { ClientEvent, Message, RegisterState } from './types';

export * from './http';
export * from './types';

export type Narrow = Array<{ operator: string; operand: string | number | number[]; negated?: boolean }>;

export interface MessagesPage {
  messages: Message[];
  anchor: number;
  found_anchor: boolean;
  found_oldest: boolean;
  found_newest: boolean;
  history_limited?: boolean;
}

export interface SendResult { id: number; automatic_new_visibility_policy?: number }

export type SendParams =
  | { type: 'stream'; to: number | string; topic: string; content: string; queue_id?: string; local_id?: string; read_by_sender?: boolean }
  | { type: 'direct' | 'private'; to: number[]; content: string; queue_id?: string; local_id?: string; read_by_sender?: boolean };

export class ChatClient {
  readonly http: Transport;

  constructor(options: ClientOptions) {
    this.http = new Transport(options);
  }

  call<T = Record<string, unknown>>(method: string, path: string, params?: Params, opts?: CallOptions): Promise<T> {
    return this.http.call<T>(method, path, params, opts);
  }

  // --- The event system ---------------------------------------------------------------------

  async register(params: Params = {}, opts?: CallOptions): Promise<RegisterState> {
    return withOwnRole(await this.call<RegisterState>('POST', '/register', params, opts));
  }

  /** A register answer fetched outside the client (the web app's shell asks before the app runs). */
  async registerAnswer(res: Response): Promise<RegisterState> {
    return withOwnRole(await readEnvelope<RegisterState>(res));
  }

  getEvents(queueId: string, lastEventId: number, opts?: CallOptions): Promise<{ events: ClientEvent[]; queue_id?: string }> {
    return this.call('GET', '/events', { queue_id: queueId, last_event_id: lastEventId }, opts);
  }

  deleteQueue(queueId: string): Promise<unknown> {
    return this.call('DELETE', '/events', { queue_id: queueId });
  }

  // --- Messages -----------------------------------------------------------------------------

  getMessages(params: { anchor: number | 'newest' | 'oldest' | 'first_unread'; num_before: number; num_after: number; narrow?: Narrow; include_anchor?: boolean; apply_markdown?: boolean; client_gravatar?: boolean }, opts?: CallOptions): Promise<MessagesPage> {
    return this.call<MessagesPage>('GET', '/messages', params, opts);
  }

  sendMessage(params: SendParams, opts?: CallOptions): Promise<SendResult> {
    return this.call<SendResult>('POST', '/messages', params, opts);
  }

  updateMessage(id: number, params: { content?: string; topic?: string; stream_id?: number; propagate_mode?: 'change_one' | 'change_later' | 'change_all'; send_notification_to_old_thread?: boolean; send_notification_to_new_thread?: boolean }): Promise<unknown> {
    return this.call('PATCH', `/messages/${id}`, params);
  }

  deleteMessage(id: number): Promise<unknown> {
    return this.call('DELETE', `/messages/${id}`);
  }

  getRawContent(id: number): Promise<{ raw_content: string; message: Message }> {
    return this.call('GET', `/messages/${id}`, { apply_markdown: false });
  }

  getEditHistory(id: number): Promise<{ message_history: Array<Record<string, unknown>> }> {
    return this.call('GET', `/messages/${id}/history`);
  }

  getReadReceipts(id: number): Promise<{ user_ids: number[] }> {
    return this.call('GET', `/messages/${id}/read_receipts`);
  }

  render(content: string): Promise<{ rendered: string }> {
    return this.call('POST', '/messages/render', { content });
  }

  updateFlags(messages: number[], op: 'add' | 'remove', flag: string): Promise<{ messages: number[] }> {
    return this.call('POST', '/messages/flags', { messages, op, flag });
  }

  updateFlagsForNarrow(params: { anchor: number | 'newest' | 'oldest' | 'first_unread'; num_before: number; num_after: number; narrow: Narrow; op: 'add' | 'remove'; flag: string; include_anchor?: boolean }): Promise<{ processed_count: number; updated_count: number; first_processed_id: number | null; last_processed_id: number | null; found_oldest: boolean; found_newest: boolean }> {
    return this.call('POST', '/messages/flags/narrow', params);
  }

  markAllAsRead(): Promise<{ complete?: boolean }> {
    return this.call('POST', '/mark_all_as_read');
  }

  addReaction(messageId: number, emoji: { emoji_name: string; emoji_code?: string; reaction_type?: string }): Promise<unknown> {
    return this.call('POST', `/messages/${messageId}/reactions`, emoji);
  }

  removeReaction(messageId: number, emoji: { emoji_name: string; emoji_code?: string; reaction_type?: string }): Promise<unknown> {
    return this.call('DELETE', `/messages/${messageId}/reactions`, emoji);
  }

  submessage(messageId: number, content: unknown): Promise<unknown> {
    return this.call('POST', '/submessage', { message_id: messageId, msg_type: 'widget', content: JSON.stringify(content) });
  }

  typing(op: 'start' | 'stop', to: { type: 'stream'; stream_id: number; topic: string } | { type: 'direct'; to: number[] }): Promise<unknown> {
    return this.call('POST', '/typing', to.type === 'stream' ? { op, type: 'stream', stream_id: to.stream_id, topic: to.topic } : { op, type: 'direct', to: to.to });
  }

  // --- Uploads ------------------------------------------------------------------------------

  uploadFile(file: Blob, name: string): Promise<{ uri: string; url: string; filename?: string }> {
    const form = new FormData();
    form.append('file', file, name);
    return this.http.upload('/user_uploads', form);
  }
}

/** A client for the page it runs in: the browser session, with the CSRF token the shell carries. */
export function sessionClient(csrfToken: string): ChatClient {
  return new ChatClient({ auth: { kind: 'session', csrfToken } });
}

/**
 * The server, as the family's, sends one's role only in one's user object and as the is_* flags
 * beside it; the app reads it at the top level (kept there by role events).
 */
function withOwnRole(reg: RegisterState): RegisterState {
  if (typeof reg.role !== 'number') reg.role = ownRole(reg);
  return reg;
}

/** One's role from one's user object, else from the flags register sends beside it. */
function ownRole(reg: RegisterState): number {
  const me = reg.realm_users?.find((u) => u.user_id === reg.user_id);
  if (typeof me?.role === 'number') return me.role;
  const flags = reg as RegisterState & { is_moderator?: boolean };
  if (reg.is_owner) return 100;
  if (reg.is_admin) return 200;
  if (flags.is_moderator) return 300;
  if (reg.is_guest) return 600;
  return 400;
}
