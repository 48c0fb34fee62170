/**
 * Every emoji a person can pick or type: the server's Unicode table (fetched once, lazily, from
 * the register's `server_emoji_data_url`, so it costs nothing on the first load), the realm's
 * custom emoji (live, from the snapshot and `realm_emoji` events) and the server's own
 * `:zulip:`. One list for the picker, the typeahead and reactions.
 */
import { useEffect, useState } from 'react';
import type { CustomEmoji } from '@chat/client';
import { useAppState } from '../state/store';

export type ReactionType = 'unicode_emoji' | 'realm_emoji' | 'zulip_extra_emoji';

export interface EmojiEntry {
  /** The canonical name (what reactions send as emoji_name). */
  name: string;
  aliases: string[];
  code: string;
  type: ReactionType;
  /** Image for custom and extra emoji. */
  url?: string;
}

let unicode: Promise<EmojiEntry[]> | null = null;

export function loadUnicodeEmoji(url = '/static/generated/emoji/emoji_api.json'): Promise<EmojiEntry[]> {
  unicode ??= fetch(url, { credentials: 'same-origin' })
    .then((r) => r.json() as Promise<{ code_to_names: Record<string, string[]> }>)
    .then((data) => Object.entries(data.code_to_names).map(([code, names]) => ({ name: names[0]!, aliases: names.slice(1), code, type: 'unicode_emoji' as const })))
    .catch((err) => {
      unicode = null;
      throw err;
    });
  return unicode;
}

/** The characters of a Unicode emoji code such as `1f44d` or `1f1fa-1f1f8`. */
export function emojiChars(code: string): string {
  try {
    return String.fromCodePoint(...code.split('-').map((c) => parseInt(c, 16)));
  } catch {
    return '';
  }
}

export function customEmojiEntries(realmEmoji: Record<string, CustomEmoji>): EmojiEntry[] {
  return Object.values(realmEmoji)
    .filter((e) => !e.deactivated)
    .map((e) => ({ name: e.name, aliases: [], code: String(e.id), type: 'realm_emoji' as const, url: e.source_url }));
}

/** The server ships no image for :zulip:, so the app carries its own small one. */
const ZULIP_SVG = `data:image/svg+xml,${encodeURIComponent('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><circle cx="16" cy="16" r="16" fill="#6492fe"/><path d="M9 9h14l-9.5 11H23v3H9l9.5-11H9z" fill="#fff"/></svg>')}`;

export const ZULIP_EMOJI: EmojiEntry = { name: 'zulip', aliases: [], code: 'zulip', type: 'zulip_extra_emoji', url: ZULIP_SVG };

/** Custom emoji first (they are the realm's own), then :zulip:, then the Unicode table. */
export function useEmojiList(): EmojiEntry[] {
  const realmEmoji = useAppState((s) => s.reg?.realm_emoji);
  const url = useAppState((s) => s.reg?.server_emoji_data_url as string | undefined);
  const [table, setTable] = useState<EmojiEntry[]>([]);
  useEffect(() => {
    let live = true;
    loadUnicodeEmoji(url ? new URL(url, location.href).pathname : undefined).then((list) => live && setTable(list), () => undefined);
    return () => {
      live = false;
    };
  }, [url]);
  return [...customEmojiEntries(realmEmoji ?? {}), ZULIP_EMOJI, ...table];
}
