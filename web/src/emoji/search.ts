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

/** The emoji people reach for most, shown first when nothing is searched (the family's popular set and a few more). */
const POPULAR = ['1f44d', '1f389', '1f642', '2764', '1f6e0', '1f419', '1f600', '1f602', '1f44f', '1f64f', '1f525', '2705', '1f440', '1f914', '1f622', '1f44b'];

/** Where a Unicode emoji sorts when browsing: popular ones, then faces, people, nature and objects, then symbols. */
function browseRank(code: string): number {
  const popular = POPULAR.indexOf(code);
  if (popular >= 0) return popular;
  const cp = parseInt(code.split('-')[0]!, 16);
  if (cp >= 0x1f600 && cp <= 0x1f64f) return 100;
  if (cp >= 0x1f910 && cp <= 0x1f9ff) return 200;
  if (cp >= 0x1f440 && cp <= 0x1f4ff) return 300;
  if (cp >= 0x1f300 && cp <= 0x1f43f) return 400;
  if (cp >= 0x1f500 && cp <= 0x1f5ff) return 500;
  if (cp >= 0x1f680 && cp <= 0x1f6ff) return 600;
  return 1000;
}

/** The list in browsing order: custom emoji and :zulip: first as given, then Unicode by rank and code. */
export function browseOrder(list: readonly EmojiEntry[]): EmojiEntry[] {
  const custom = list.filter((e) => e.type !== 'unicode_emoji');
  const unicode = list.filter((e) => e.type === 'unicode_emoji').map((e) => ({ e, r: browseRank(e.code) }));
  unicode.sort((a, b) => a.r - b.r || a.e.code.localeCompare(b.e.code));
  return [...custom, ...unicode.map((x) => x.e)];
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

export type SectionId = 'popular' | 'custom' | 'smileys' | 'people' | 'nature' | 'food' | 'activities' | 'travel' | 'objects' | 'symbols' | 'flags';

export interface EmojiSection {
  id: SectionId;
  entries: EmojiEntry[];
}

/** The data set's category names, as the build's table (`virtual:emoji-categories`) gives them. */
const CATEGORY_IDS: Record<string, SectionId> = {
  'Smileys & Emotion': 'smileys', 'People & Body': 'people', 'Animals & Nature': 'nature', 'Food & Drink': 'food',
  Activities: 'activities', 'Travel & Places': 'travel', Objects: 'objects', Symbols: 'symbols', Flags: 'flags',
};

const bare = (code: string) => code.replace(/-fe0f/g, '');

/**
 * What the picker shows when nothing is searched: the popular few, the realm's own (custom
 * emoji and :zulip:), then each Unicode category in the data set's order. A Unicode emoji of
 * the server's table that no category names goes with the symbols, so none is unreachable.
 */
export function emojiSections(list: readonly EmojiEntry[], categories: ReadonlyArray<readonly [string, string]>): EmojiSection[] {
  const unicode = new Map<string, EmojiEntry>();
  for (const e of list) if (e.type === 'unicode_emoji') unicode.set(bare(e.code), e);
  const placed = new Set<string>();
  const sections: EmojiSection[] = [
    { id: 'popular', entries: POPULAR.map((c) => unicode.get(c)).filter((e): e is EmojiEntry => !!e) },
    { id: 'custom', entries: list.filter((e) => e.type !== 'unicode_emoji') },
  ];
  for (const [name, codes] of categories) {
    const id = CATEGORY_IDS[name];
    if (!id) continue;
    const entries: EmojiEntry[] = [];
    for (const code of codes.split(' ')) {
      const e = unicode.get(code);
      if (e && !placed.has(code)) {
        placed.add(code);
        entries.push(e);
      }
    }
    sections.push({ id, entries });
  }
  const rest = [...unicode].filter(([code]) => !placed.has(code)).map(([, e]) => e);
  if (rest.length) {
    const symbols = sections.find((s) => s.id === 'symbols');
    if (symbols) symbols.entries.push(...rest);
    else sections.push({ id: 'symbols', entries: rest });
  }
  return sections.filter((s) => s.entries.length > 0);
}
