import emojiData from 'emoji-datasource/emoji.json';

/**
 * Unicode emoji names and codes: a name is any of an emoji's short names, its code the
 * dash-separated lower-case hex code points (without variation selectors where the emoji has
 * a form without them), as reactions and statuses carry them.
 */
interface EmojiEntry {
  unified: string;
  non_qualified: string | null;
  short_names: string[];
}

const nameToCode = new Map<string, string>();
const codes = new Set<string>();
for (const e of emojiData as EmojiEntry[]) {
  const code = (e.non_qualified ?? e.unified).toLowerCase();
  codes.add(code);
  for (const name of e.short_names) if (!nameToCode.has(name)) nameToCode.set(name, code);
}

export function unicodeEmojiCode(name: string): string | undefined {
  return nameToCode.get(name);
}

export function isUnicodeEmojiCode(code: string): boolean {
  return codes.has(code);
}

/** The one emoji of the server's own namespace. */
export const EXTRA_EMOJI = ['zulip'];
