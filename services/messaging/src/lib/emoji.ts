/**
 * Unicode emoji names and codes from emoji-datasource (iamcal's maintained data set). A code is
 * the dash-separated lower-case hex of the emoji's code points without variation selectors,
 * as clients of this API build image and font lookups from it.
 */
import emojiData from 'emoji-datasource/emoji.json';

interface Entry {
  unified: string;
  short_name: string;
  short_names: string[];
  name: string | null;
}

/** Extra emoji of the server itself (reaction_type svc_extra_emoji): the code is the name. */
export const EXTRA_EMOJI = new Set(['zulip']);

export function codeOf(unified: string): string {
  return unified.toLowerCase().split('-').filter((cp) => cp !== 'fe0f').join('-');
}

const nameToCode = new Map<string, string>();
const codeToName = new Map<string, string>();
/** Emoji characters (fully qualified and bare) -> code, for converting emoji typed as text. */
const charToCode = new Map<string, string>();

for (const e of emojiData as Entry[]) {
  const code = codeOf(e.unified);
  codeToName.set(code, e.short_name);
  for (const n of e.short_names) if (!nameToCode.has(n)) nameToCode.set(n, code);
  // The Unicode name in snake case ("thumbs_up_sign") is accepted too.
  const long = e.name?.toLowerCase().replace(/[^a-z0-9]+/g, '_').replace(/^_|_$/g, '');
  if (long && !nameToCode.has(long)) nameToCode.set(long, code);
  const chars = e.unified.split('-').map((h) => String.fromCodePoint(parseInt(h, 16))).join('');
  charToCode.set(chars, code);
  charToCode.set(chars.replace(/\uFE0F/g, ''), code);
}

export function unicodeEmojiCode(name: string): string | undefined {
  return nameToCode.get(name);
}

export function unicodeEmojiName(code: string): string | undefined {
  return codeToName.get(code);
}

export function isUnicodeEmojiCode(code: string): boolean {
  return codeToName.has(code);
}

// Longest first, so that sequences (flags, families, skin tones) win over their parts.
const charPattern = new RegExp(
  [...charToCode.keys()]
    .filter((c) => c.length > 0 && !/^[0-9#*]$/.test(c))
    .sort((a, b) => b.length - a.length)
    .map((c) => c.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('|'),
  'gu',
);

/** Splits text into plain runs and emoji characters with their codes. */
export function splitUnicodeEmoji(text: string): Array<string | { char: string; code: string }> {
  const out: Array<string | { char: string; code: string }> = [];
  let last = 0;
  for (const m of text.matchAll(charPattern)) {
    const code = charToCode.get(m[0]);
    if (!code || !codeToName.has(code)) continue;
    if (m.index! > last) out.push(text.slice(last, m.index));
    out.push({ char: m[0], code });
    last = m.index! + m[0].length;
  }
  if (last < text.length) out.push(text.slice(last));
  return out;
}
