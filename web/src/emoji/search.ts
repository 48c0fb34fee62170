/**
 * Finding emoji by name for the picker: names and aliases that start with the query first
 * (then those with a word starting with it, then any containing it), in the list's own order
 * within each rank, so the realm's custom emoji stay ahead of the Unicode table.
 */
import type { EmojiEntry } from './data';

function rank(entry: EmojiEntry, q: string): number {
  let best = 4;
  for (const name of [entry.name, ...entry.aliases]) {
    if (name === q) return 0;
    if (name.startsWith(q)) best = Math.min(best, 1);
    else if (name.split('_').some((w) => w.startsWith(q))) best = Math.min(best, 2);
    else if (name.includes(q)) best = Math.min(best, 3);
  }
  return best;
}

/** Emoji matching `query` (spaces read as underscores, a leading colon ignored), best first. */
export function searchEmoji(list: readonly EmojiEntry[], query: string, limit = 200): EmojiEntry[] {
  const q = query.trim().toLowerCase().replace(/^:|:$/g, '').replace(/\s+/g, '_');
  if (!q) return list.slice(0, limit);
  const buckets: EmojiEntry[][] = [[], [], [], []];
  for (const e of list) {
    const r = rank(e, q);
    if (r < 4) buckets[r]!.push(e);
  }
  return buckets.flat().slice(0, limit);
}

/** One entry per emoji: the server's table can name a code more than once via aliases only. */
export function dedupeEmoji(list: readonly EmojiEntry[]): EmojiEntry[] {
  const seen = new Set<string>();
  const out: EmojiEntry[] = [];
  for (const e of list) {
    const key = `${e.type}:${e.type === 'unicode_emoji' ? e.code : e.name}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(e);
  }
  return out;
}
