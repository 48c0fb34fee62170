/**
 * `virtual:emoji-categories`: the Unicode emoji's categories in the emoji data set's own order
 * (iamcal's emoji-datasource, which the family's pickers group by too), made at build time so
 * the app ships a few kilobytes (one line of codes per category, in the picker's chunk) instead
 * of the data set. Codes are lower-case and written without U+FE0F, the way the picker compares.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Plugin } from 'vite';

const ID = 'virtual:emoji-categories';
const RESOLVED = `\0${ID}`;

interface DataSetEntry {
  unified: string;
  category: string;
  sort_order: number;
}

/** The skin-tone modifiers and other parts of sequences, not emoji to pick. */
const LEFT_OUT = new Set(['Component']);

export function emojiCategoryTable(entries: readonly DataSetEntry[]): Array<[string, string]> {
  const byCategory = new Map<string, DataSetEntry[]>();
  for (const e of entries) {
    if (LEFT_OUT.has(e.category)) continue;
    const list = byCategory.get(e.category) ?? [];
    list.push(e);
    byCategory.set(e.category, list);
  }
  return [...byCategory].map(([category, list]) => [
    category,
    list.sort((a, b) => a.sort_order - b.sort_order).map((e) => e.unified.toLowerCase().replace(/-fe0f/g, '')).join(' '),
  ]);
}

export function emojiCategories(): Plugin {
  return {
    name: 'emoji-categories',
    resolveId: (id) => (id === ID ? RESOLVED : null),
    load(id) {
      if (id !== RESOLVED) return null;
      const file = createRequire(import.meta.url).resolve('emoji-datasource/emoji.json');
      const entries = JSON.parse(readFileSync(file, 'utf8')) as DataSetEntry[];
      const order = ['Smileys & Emotion', 'People & Body', 'Animals & Nature', 'Food & Drink', 'Activities', 'Travel & Places', 'Objects', 'Symbols', 'Flags'];
      const table = emojiCategoryTable(entries).sort(([a], [b]) => order.indexOf(a) - order.indexOf(b));
      return `export default ${JSON.stringify(table)};`;
    },
  };
}
