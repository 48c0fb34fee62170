/**
 * Links to a message and the quote-and-reply text, in the family's formats, so a link copied
 * here opens the same message in the family's apps and a quote renders the same everywhere.
 */
import type { Message } from '@chat/client';
import { channelSlug, encodeHashComponent } from '../narrow/hash';
import type { ComposeTarget } from '../compose/Compose';

/** The people of a direct message, sorted (the viewer included, as in the family's permalinks). */
export function dmUserIds(message: Pick<Message, 'display_recipient'>): number[] {
  return Array.isArray(message.display_recipient) ? message.display_recipient.map((u) => u.id).sort((a, b) => a - b) : [];
}

/**
 * The message's permanent hash: `#narrow/channel/<id>-<name>/topic/<topic>/near/<id>`, or for
 * a direct message `#narrow/dm/<ids>-dm` (two people) / `-group` (three or more) with `/near/<id>`.
 */
export function messageHash(message: Pick<Message, 'id' | 'type' | 'stream_id' | 'subject' | 'display_recipient'>, channelName: string): string {
  const near = `/near/${encodeHashComponent(String(message.id))}`;
  if (message.type === 'stream') {
    return `#narrow/channel/${encodeHashComponent(channelSlug(message.stream_id!, channelName))}/topic/${encodeHashComponent(message.subject)}${near}`;
  }
  const ids = dmUserIds(message);
  return `#narrow/dm/${ids.join(',')}-${ids.length >= 3 ? 'group' : 'dm'}${near}`;
}

/** The absolute link to a message, on the realm's address. */
export function messageLink(message: Parameters<typeof messageHash>[0], channelName: string, realmUrl: string): string {
  return `${realmUrl.replace(/\/+$/, '')}/${messageHash(message, channelName)}`;
}

/** A fence of backticks longer than any fence inside the content (the family's rule). */
export function unusedFence(content: string): string {
  let length = 3;
  for (const m of content.matchAll(/^ {0,3}(`{3,})/gm)) length = Math.max(length, m[1]!.length + 1);
  return '`'.repeat(length);
}

/**
 * The quote of a message: `@_**Name|id** [said](link):` then the raw content in a `quote`
 * fence. The caller puts it into the compose box (after what is already typed).
 */
export function quoteText(message: Pick<Message, 'sender_full_name' | 'sender_id'>, rawContent: string, link: string): string {
  const fence = unusedFence(rawContent);
  return `@_**${message.sender_full_name}|${message.sender_id}** [said](${link}):\n${fence}quote\n${rawContent}\n${fence}`;
}

/** Where a reply to the message goes: its channel and topic, or the same people. */
export function replyTarget(message: Pick<Message, 'type' | 'stream_id' | 'subject' | 'display_recipient'>, selfId: number): ComposeTarget {
  if (message.type === 'stream') return { type: 'stream', streamId: message.stream_id!, topic: message.subject };
  const others = dmUserIds(message).filter((id) => id !== selfId);
  return { type: 'direct', to: others.length ? others : [selfId] };
}
