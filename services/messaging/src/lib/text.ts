import { EMPTY_TOPIC_DISPLAY_NAME, errors, LIMITS, NO_TOPIC_PLACEHOLDER } from '@chat/contracts';

/** Cuts `text` to `max` code points, ending it with `suffix` when it was cut. */
export function truncate(text: string, max: number, suffix: string): string {
  const chars = [...text];
  if (chars.length <= max) return text;
  return chars.slice(0, max - [...suffix].length).join('') + suffix;
}

/** Message content as stored: trailing blanks and leading blank lines dropped, bounded. */
export function normalizeContent(raw: string): string {
  if (raw.includes('\u0000')) throw errors.badRequest('Message must not contain null bytes');
  const body = raw.trimEnd().replace(/^\n+/, '');
  if (!body.trim()) throw errors.badRequest('Message must not be empty');
  return truncate(body, LIMITS.maxMessageLength, '\n[message truncated]');
}

/** Python's str.strip() set beyond JavaScript's trim(): the family strips a topic with it. */
const PY_EXTRA_BLANKS = '\u001c\u001d\u001e\u001f\u0085';

function stripTopic(raw: string): string {
  let start = 0;
  let end = raw.length;
  const blank = (c: string) => c.trim() === '' || PY_EXTRA_BLANKS.includes(c);
  while (start < end && blank(raw[start]!)) start++;
  while (end > start && blank(raw[end - 1]!)) end--;
  return raw.slice(start, end);
}

/** Control characters, lone surrogates and noncharacters (Unicode Cc, Cs and the noncharacter set). */
function unprintable(ch: string): boolean {
  const cp = ch.codePointAt(0)!;
  if (cp < 0x20 || (cp >= 0x7f && cp <= 0x9f)) return true;
  if (cp >= 0xd800 && cp <= 0xdfff) return true;
  return (cp >= 0xfdd0 && cp <= 0xfdef) || (cp & 0xfffe) === 0xfffe;
}

/**
 * A topic as stored: trimmed, bounded, and the names clients show for the empty topic
 * ("(no topic)", "general chat") read as the empty topic itself. Like the family, the topic is
 * stripped first, so a trailing newline is dropped, and an unprintable character left inside is
 * named by its 1-based position in code points.
 */
export function normalizeTopic(raw: string): string {
  if (raw.includes('\u0000')) throw errors.badRequest('Topic must not contain null bytes');
  const topic = stripTopic(raw);
  const chars = [...topic];
  const bad = chars.findIndex(unprintable);
  // Control characters would break every client's topic list.
  if (bad >= 0) throw errors.badRequest(`Invalid character in topic, at position ${bad + 1}!`);
  if (topic === NO_TOPIC_PLACEHOLDER || topic === EMPTY_TOPIC_DISPLAY_NAME) return '';
  return truncate(topic, LIMITS.maxTopicLength, '...');
}
