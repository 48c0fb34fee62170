/**
 * A user's own things (navigation views, saved snippets, alert words, drafts) and the status
 * others see, as their endpoints, their events and register all give them.
 */
import type { AlertWord, Draft, NavigationView, SavedSnippet, UserStatus } from '@chat/db';
import { unixSeconds } from './time';

/** name is present for custom views only; built-in views have none. */
export function navigationViewObject(v: NavigationView): { fragment: string; is_pinned: boolean; name?: string } {
  return { fragment: v.fragment, is_pinned: v.isPinned, ...(v.name !== null ? { name: v.name } : {}) };
}

export function savedSnippetObject(s: SavedSnippet) {
  return { id: s.id, title: s.title, content: s.content, date_created: unixSeconds(s.dateCreated) };
}

/** Alert words are a plain list of the words, in the order given. */
export function alertWordList(rows: Array<Pick<AlertWord, 'word'>>): string[] {
  return rows.map((r) => r.word);
}

/**
 * A user's status: only the parts that are set (no text, no emoji: an empty object). An empty
 * status is left out of register's user_status map.
 */
export function userStatusObject(row: UserStatus | null | undefined): Record<string, string> {
  const status: Record<string, string> = {};
  if (row?.statusText) status.status_text = row.statusText;
  if (row?.emojiName) Object.assign(status, { emoji_name: row.emojiName, emoji_code: row.emojiCode, reaction_type: row.reactionType });
  return status;
}

/** `to` is the channel id in a one-element list for a channel draft, else the recipients' ids. */
export function draftObject(d: Draft) {
  return {
    id: d.id,
    type: d.type,
    to: d.type === 'stream' ? [d.streamId] : d.toUserIds,
    topic: d.topic,
    content: d.content,
    timestamp: unixSeconds(d.lastEditTime),
  };
}
