/**
 * What one queue receives for one domain event: whether it matches the queue at all (event
 * types, narrow, capabilities) and the per-queue form of the event (content format, avatar,
 * empty-topic display, the sender's local id, per-recipient flags). Pure functions of the
 * queue's registration and the outbox payload, so every replica formats identically.
 */
import { EMPTY_TOPIC_DISPLAY_NAME, type AnyOutboxPayload, type ClientEvent, type ClientMessageEvent, type MessagePayload } from '@chat/contracts';
import type { QueueInfo } from '@chat/queues';
import { matchesNarrow } from './narrow';

/** An outbox payload as it arrives from the stream (@chat/contracts events.ts; docs/events.md). */
export type Payload = AnyOutboxPayload;

/** What formatMessage reads of a message payload. */
type MessageParts = Pick<MessagePayload, 'event' | 'user_flags' | 'topic' | 'raw_content' | 'sender_gravatar' | 'sender_queue_id' | 'local_id'>;

const capable = (q: QueueInfo, name: string) => q.clientCapabilities[name] === true;

function wantsType(q: QueueInfo, type: string): boolean {
  return q.eventTypes === null || q.eventTypes.includes(type);
}

/** Fields that carry topic names, per event type, when the producer did not name them. */
const DEFAULT_TOPIC_FIELDS: Record<string, string[]> = {
  update_message: ['subject', 'orig_subject', 'topic', 'orig_topic'],
  delete_message: ['topic'],
  typing: ['topic'],
  user_topic: ['topic_name'],
};

function showEmptyTopics(q: QueueInfo, event: Record<string, unknown>, fields: string[]): Record<string, unknown> {
  if (capable(q, 'empty_topic_name')) return event;
  let out = event;
  for (const f of fields) {
    if (out[f] === '') {
      if (out === event) out = { ...event };
      out[f] = EMPTY_TOPIC_DISPLAY_NAME;
    }
  }
  return out;
}

/** What formatMessage and formatOther read of a queue's registration, as text; see formatKey. */
const registrationKeys = new WeakMap<QueueInfo, string>();

/**
 * Two queues with the same key get the same events from the same payload, so the fan-out formats
 * and serialises once per key rather than once per queue (a channel's subscribers mostly
 * registered alike). The formatters are pure functions of the payload and of the queue's
 * registration (every field below), its user id only through the payload's `user_flags`, and its
 * queue id only through `sender_queue_id`: a formatter that starts reading anything else of the
 * queue must add it here.
 */
export function formatKey(q: QueueInfo, p: Payload): string {
  let registration = registrationKeys.get(q);
  if (registration === undefined) {
    registration = JSON.stringify([
      q.eventTypes, q.narrow, q.clientCapabilities, q.applyMarkdown, q.clientGravatar, q.slimPresence ?? false,
    ]);
    registrationKeys.set(q, registration);
  }
  const flags = p.user_flags?.[String(q.userId)];
  const sender = p.sender_queue_id !== undefined && p.sender_queue_id === q.queueId;
  return `${registration}|${flags ? JSON.stringify(flags) : '-'}|${sender ? 1 : 0}`;
}

/** The message event one queue gets, or null when it does not match the queue. */
export function formatMessage(q: QueueInfo, p: MessageParts): ClientMessageEvent | null {
  if (!wantsType(q, 'message')) return null;
  const message = { ...p.event.message };
  const flags = p.user_flags?.[String(q.userId)] ?? [];
  const isStream = message.type === 'stream';
  // Narrows name the topic as stored, so match on the raw topic before it is displayed.
  const topic = typeof p.topic === 'string' ? p.topic : message.subject;
  if (isStream) message.subject = topic;
  if (!matchesNarrow(q.narrow, message, flags)) return null;
  if (!q.applyMarkdown && typeof p.raw_content === 'string') {
    message.content = p.raw_content;
    message.content_type = 'text/x-markdown';
  }
  if (q.clientGravatar && p.sender_gravatar) message.avatar_url = null;
  if (isStream && topic === '' && !capable(q, 'empty_topic_name')) message.subject = EMPTY_TOPIC_DISPLAY_NAME;
  const event: ClientMessageEvent = { type: 'message', message, flags };
  if (p.sender_queue_id !== undefined && p.sender_queue_id === q.queueId && p.local_id !== undefined) {
    event.local_message_id = p.local_id;
  }
  return event;
}

/** The events one queue gets for a non-message domain event (possibly none, possibly several). */
export function formatOther(q: QueueInfo, p: Payload): Array<Record<string, unknown>> {
  let event: ClientEvent | null | undefined = p.event;
  if (p.capability && !capable(q, p.capability)) event = p.fallback_event;
  if (!event || !wantsType(q, event.type)) return [];

  // Built-in capability rules, so producers need not spell out the common ones.
  if (event.type === 'realm_linkifiers' && !capable(q, 'linkifier_url_template')) return [];
  if (event.type === 'typing' && event.message_type === 'stream' && !capable(q, 'stream_typing_notifications')) return [];

  const topicFields = p.topic_fields ?? DEFAULT_TOPIC_FIELDS[event.type] ?? [];
  let shown = showEmptyTopics(q, event, topicFields);
  // slim_presence queues identify users by id only, so the legacy presence event drops email.
  if (shown.type === 'presence' && q.slimPresence && 'email' in shown) {
    const { email: _email, ...rest } = shown;
    shown = rest;
  }
  // Per-recipient flags (update_message carries each recipient's flags for the edited message).
  if (p.user_flags && event === p.event) shown = { ...shown, flags: p.user_flags[String(q.userId)] ?? [] };

  if (shown.type === 'delete_message' && Array.isArray(shown.message_ids) && !capable(q, 'bulk_message_deletion')) {
    // Clients without bulk deletion understand one message_id per event.
    const { message_ids: ids, ...rest } = shown;
    return (ids as number[]).map((id) => ({ ...rest, message_id: id }));
  }
  return [shown];
}
