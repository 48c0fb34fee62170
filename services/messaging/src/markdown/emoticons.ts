/**
 * Emoticons typed as text (`:)`, `<3`), shown as the emoji they stand for when the sender has
 * `translate_emoticons` on, as the family's server does at render time (the stored content
 * keeps the text). Its table and rule: an emoticon between terminal symbols (start or end,
 * spaces, `,.;?!()[]"'`), so `a:)` or `;)b` stay text.
 */
import { emojiCodeForName } from '@chat/emoji';

/** The family's EMOTICON_CONVERSIONS, in the emoji names of its emoji set. */
export const EMOTICONS: Readonly<Record<string, string>> = {
  ':)': 'smile',
  '(:': 'smile',
  ':(': 'frown',
  '<3': 'heart',
  ':|': 'neutral',
  ':/': 'confused',
  ';)': 'wink',
  ':D': 'grinning',
  ':o': 'open_mouth',
  ':O': 'open_mouth',
  ':p': 'stuck_out_tongue',
  ':P': 'stuck_out_tongue',
};

const TERMINAL = `,.;?!()\\[\\] "'\\n\\t`;
const EMOTICON_RE = new RegExp(
  `(?<![^${TERMINAL}])(${Object.keys(EMOTICONS)
    .map((e) => e.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&'))
    .join('|')})(?![^${TERMINAL}])`,
  'g',
);

/** Text split into plain pieces and the emoji its emoticons stand for. */
export function splitEmoticons(text: string): Array<string | { name: string; code: string }> {
  const out: Array<string | { name: string; code: string }> = [];
  let last = 0;
  for (const m of text.matchAll(EMOTICON_RE)) {
    const name = EMOTICONS[m[0]]!;
    const code = emojiCodeForName(name);
    if (!code) continue;
    if (m.index! > last) out.push(text.slice(last, m.index));
    out.push({ name, code });
    last = m.index! + m[0].length;
  }
  if (last < text.length) out.push(text.slice(last));
  return out;
}
