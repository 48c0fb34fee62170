/**
 * The family's Unicode emoji names (data/emoji-names.json, kept as the family's clients ship
 * it): every canonical name and alias is a valid emoji_name for its code, and a code's
 * canonical name is the one the family's server shows for it. Reactions, statuses and the
 * Markdown renderer resolve names here, and the gateway serves the same table to mobile
 * clients, so what the server accepts and what clients offer cannot drift apart.
 *
 * Codes are dash-joined lower-case hex code points. A few of the family's codes keep U+FE0F
 * inside ZWJ sequences (`1f575-fe0f-200d-2642-fe0f`) while clients often send them without
 * it: lookups compare codes without FE0F and always answer with the family's spelling.
 */
import table from '../data/emoji-names.json';

interface Entry {
  code: string;
  aliases: string[];
}

const VS16 = 'fe0f';

/**
 * A code as compared: lower case, each code point at least four hex digits (as the family
 * writes `002a-20e3`), without U+FE0F. Anything that is not hex comes back lower-cased, so it
 * matches nothing.
 */
export function normalizeEmojiCode(code: string): string {
  const parts = code.toLowerCase().split('-');
  if (!parts.every((p) => /^[0-9a-f]{1,6}$/.test(p))) return code.toLowerCase();
  return parts
    .map((p) => parseInt(p, 16).toString(16).padStart(4, '0'))
    .filter((p) => p !== VS16)
    .join('-');
}

const nameToCode = new Map<string, string>();
/** The family's code -> [canonical name, ...aliases]. */
const codeToNames = new Map<string, readonly string[]>();
/** Normalized code -> the family's code. */
const familyCodes = new Map<string, string>();

for (const [canonical, entry] of Object.entries((table as { emoji: Record<string, Entry> }).emoji)) {
  const names = [canonical, ...entry.aliases];
  for (const name of names) nameToCode.set(name, entry.code);
  codeToNames.set(entry.code, names);
  familyCodes.set(normalizeEmojiCode(entry.code), entry.code);
}

/** How many names (canonical and aliases) the table holds. */
export const EMOJI_NAME_COUNT = nameToCode.size;

/**
 * Emoji of the server's own namespace (reaction_type `svc_extra_emoji`, the family's
 * `zulip_extra_emoji`): the code is the name. Not Unicode, so not in the table.
 */
export const EXTRA_EMOJI_NAMES: readonly string[] = ['zulip'];

export function isExtraEmoji(nameOrCode: string): boolean {
  return EXTRA_EMOJI_NAMES.includes(nameOrCode);
}

/** The family's code for a canonical name or alias. */
export function emojiCodeForName(name: string): string | undefined {
  return nameToCode.get(name);
}

/** The family's spelling of a code given with or without FE0F; undefined when unknown. */
export function familyEmojiCode(code: string): string | undefined {
  return familyCodes.get(normalizeEmojiCode(code));
}

export function isUnicodeEmojiCode(code: string): boolean {
  return familyEmojiCode(code) !== undefined;
}

/** The family's canonical name for a code (either spelling). */
export function canonicalEmojiName(code: string): string | undefined {
  const family = familyEmojiCode(code);
  return family === undefined ? undefined : codeToNames.get(family)![0];
}

/** Every name of a code (either spelling), canonical first. */
export function emojiNamesForCode(code: string): readonly string[] | undefined {
  const family = familyEmojiCode(code);
  return family === undefined ? undefined : codeToNames.get(family);
}

/** Whether a name (canonical or alias) names this code (either spelling). */
export function emojiNameMatchesCode(name: string, code: string): boolean {
  const named = nameToCode.get(name);
  return named !== undefined && named === familyEmojiCode(code);
}

/**
 * The spellings a stored row may carry for a code: the family's and the one without FE0F
 * (rows written before the family's table was used), so a lookup finds either.
 */
export function emojiCodeSpellings(code: string): string[] {
  const family = familyEmojiCode(code);
  if (family === undefined) return [code];
  return [...new Set([family, normalizeEmojiCode(family)])];
}

/**
 * The data file of `server_emoji_data_url`: `{"code_to_names": {code: [canonical,
 * ...aliases]}}` for every Unicode emoji the server accepts.
 */
export function serverEmojiData(): { code_to_names: Record<string, string[]> } {
  const out: Record<string, string[]> = {};
  for (const [code, names] of codeToNames) out[code] = [...names];
  return { code_to_names: out };
}

// Emoji typed as characters: each code's code points, each optionally followed by U+FE0F
// (typed emoji usually carry it, the family's codes mostly do not). Longest first, so that
// sequences (flags, keycaps, ZWJ sequences) win over their parts. Sticky: it is tried only
// where an emoji can start (below), since an alternation of thousands of sequences tried at
// every position of a long text costs milliseconds a message.
const familySequences = [...familyCodes.keys()].map((norm) => norm.split('-'));
const typedPattern = new RegExp(
  familySequences
    .sort((a, b) => b.length - a.length)
    .map((cps) => cps.map((cp) => `\\u{${cp}}\\u{fe0f}?`).join(''))
    .join('|'),
  'uy',
);
/** Code points an emoji can start with. */
const emojiStarts = new Set(familySequences.map((cps) => parseInt(cps[0]!, 16)));
/**
 * Digits, '#' and '*' start keycap emoji only when a variation selector or the keycap mark
 * follows; plain text is full of them, and trying the pattern at each costs far more than this.
 */
const KEYCAP_NEXT = new Set([0xfe0f, 0x20e3]);
const isKeycapBase = (cp: number) => (cp >= 0x30 && cp <= 0x39) || cp === 0x23 || cp === 0x2a;

function typedToCode(chars: string): string | undefined {
  const hex = [...chars].map((c) => c.codePointAt(0)!.toString(16)).join('-');
  return familyEmojiCode(hex);
}

/** Splits text into plain runs and emoji characters with the family's codes. */
export function splitUnicodeEmoji(text: string): Array<string | { char: string; code: string }> {
  const out: Array<string | { char: string; code: string }> = [];
  let last = 0;
  for (let i = 0; i < text.length; ) {
    const cp = text.codePointAt(i)!;
    const width = cp > 0xffff ? 2 : 1;
    if (!emojiStarts.has(cp) || (isKeycapBase(cp) && !KEYCAP_NEXT.has(text.charCodeAt(i + 1)))) {
      i += width;
      continue;
    }
    typedPattern.lastIndex = i;
    const m = typedPattern.exec(text);
    const code = m ? typedToCode(m[0]) : undefined;
    if (!m || !code) {
      i += width;
      continue;
    }
    if (i > last) out.push(text.slice(last, i));
    out.push({ char: m[0], code });
    last = i + m[0].length;
    i = last;
  }
  if (last < text.length) out.push(text.slice(last));
  return out;
}
export * from './check';
