/**
 * Which outgoing-webhook bots a new message sets off, and the message as their services get it.
 * The family's rules: a channel message triggers the bots it mentions by name (a silent mention
 * `@_**bot**` or a wildcard does not, which is how the failure notices avoid loops); a direct
 * message triggers the bots among its participants; nothing a bot sends triggers anything.
 */
import type { DisplayRecipientUser, MessagePayload } from '@chat/contracts';
import type { ReplyPlace } from '../../actions/bot-replies';

export type Trigger = 'mention' | 'direct_message';

/** A non-silent user mention as the Markdown renders it (silent ones carry a second class). */
const MENTION = /<span class="user-mention" data-user-id="(\d+)">/g;

/** The bots of `bots` that `payload` triggers (the sender's being a bot is checked by the caller). */
export function triggeredBots(payload: Pick<MessagePayload, 'event' | 'sender_id'>, bots: ReadonlySet<number>): Array<{ botId: number; trigger: Trigger }> {
  const message = payload.event.message;
  const found = new Map<number, Trigger>();
  if (message.type === 'stream') {
    for (const m of message.content.matchAll(MENTION)) {
      const id = Number(m[1]);
      if (bots.has(id)) found.set(id, 'mention');
    }
  } else {
    for (const r of message.display_recipient as DisplayRecipientUser[]) {
      if (bots.has(r.id)) found.set(r.id, 'direct_message');
    }
  }
  found.delete(payload.sender_id);
  return [...found].map(([botId, trigger]) => ({ botId, trigger }));
}

/**
 * The message as the family's generic format sends it: the Markdown source as `content`
 * (`content_type` text/x-markdown) with the HTML kept as `rendered_content`, and the raw topic.
 */
export function webhookMessage(payload: Pick<MessagePayload, 'event' | 'raw_content' | 'topic'>): Record<string, unknown> {
  const message = payload.event.message;
  return {
    ...message,
    content: payload.raw_content,
    content_type: 'text/x-markdown',
    rendered_content: message.content,
    subject: payload.topic,
  };
}

/** Where the trigger happened, which is where the answer goes. */
export function placeOf(message: Record<string, unknown>): ReplyPlace {
  if (message.type === 'stream') return { type: 'stream', streamId: Number(message.stream_id), topic: String(message.subject ?? '') };
  return { type: 'private', userIds: (message.display_recipient as DisplayRecipientUser[]).map((r) => r.id) };
}
