/**
 * The two payload formats of the family's outgoing webhooks. Interface 1 (its own) posts JSON:
 * `data` (the message's Markdown), `message` (the message object), `bot_email`,
 * `bot_full_name`, `token` and `trigger`, and reads `content` (or the older `response_string`)
 * from the answer unless it says `response_not_required`. Interface 2 posts the form fields of
 * Slack's outgoing webhooks and reads `text`; it has no direct messages.
 */
export const GENERIC_INTERFACE = 1;
export const SLACK_INTERFACE = 2;

export interface TriggerFacts {
  botId: number;
  botEmail: string;
  botFullName: string;
  token: string;
  trigger: string;
  realmId: number;
  /** The realm's host, Slack's `team_domain`. */
  realmHost: string;
  message: Record<string, unknown>;
}

export interface OutgoingRequest {
  body: string;
  contentType: string;
}

export function buildRequest(iface: number, t: TriggerFacts): OutgoingRequest {
  const m = t.message;
  if (iface === SLACK_INTERFACE) {
    // Slack's documented outgoing-webhook fields, with ids in its letter-prefixed style.
    const form = new URLSearchParams([
      ['token', t.token],
      ['team_id', `T${t.realmId}`],
      ['team_domain', t.realmHost],
      ['channel_id', `C${String(m.stream_id)}`],
      ['channel_name', String(m.display_recipient)],
      ['thread_ts', String(m.timestamp)],
      ['timestamp', String(m.timestamp)],
      ['user_id', `U${String(m.sender_id)}`],
      ['user_name', String(m.sender_full_name)],
      ['text', String(m.content)],
      ['trigger_word', t.trigger],
      ['service_id', String(t.botId)],
    ]);
    return { body: form.toString(), contentType: 'application/x-www-form-urlencoded' };
  }
  const body = { data: m.content, message: m, bot_email: t.botEmail, bot_full_name: t.botFullName, token: t.token, trigger: t.trigger };
  return { body: JSON.stringify(body), contentType: 'application/json' };
}

/** The family's refusal of an answer it cannot read (shown in the conversation and to the owner). */
export class AnswerError extends Error {}

/** The reply an answer asks for; null when none is wanted. */
export function replyOf(iface: number, text: string): string | null {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new AnswerError('Invalid JSON in response');
  }
  // Older bot servers answered "" for "nothing to say".
  if (json === '') return null;
  if (typeof json !== 'object' || json === null || Array.isArray(json)) throw new AnswerError('Invalid response format');
  const answer = json as Record<string, unknown>;
  let content: unknown;
  if (iface === SLACK_INTERFACE) content = answer.text;
  else if (answer.response_not_required) return null;
  else if ('response_string' in answer) content = String(answer.response_string);
  else if ('content' in answer) content = String(answer.content);
  if (typeof content !== 'string' || content.trim() === '') return null;
  return content;
}
