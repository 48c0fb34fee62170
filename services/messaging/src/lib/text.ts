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

/**
 * A topic as stored: trimmed, bounded, and the names clients show for the empty topic
 * ("(no topic)", "general chat") read as the empty topic itself.
 */
export function normalizeTopic(raw: string): string {
  if (raw.includes('\u0000')) throw errors.badRequest('Topic must not contain null bytes');
  // Control characters would break every client's topic list.
  // eslint-disable-next-line no-control-regex
  const bad = /[\u0001-\u001f\u007f-\u009f\ufffe\uffff]/.exec(raw);
  if (bad) throw errors.badRequest(`Invalid character in topic, at position ${bad.index + 1}!`);
  const topic = raw.trim();
  if (topic === NO_TOPIC_PLACEHOLDER || topic === EMPTY_TOPIC_DISPLAY_NAME) return '';
  return truncate(topic, LIMITS.maxTopicLength, '...');
}
