import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import { emojiCategoryTable } from '../../../emoji-categories';
import type { EmojiEntry } from '../data';
import { emojiSections } from '../search';

const uni = (name: string, code: string): EmojiEntry => ({ name, aliases: [], code, type: 'unicode_emoji' });

describe('the picker’s sections', () => {
  const table: Array<[string, string]> = [
    ['Smileys & Emotion', '1f600 1f642'],
    ['Symbols', '2764'],
    ['Flags', '1f1fa-1f1f8'],
  ];
  const list = [
    { name: 'octopus_custom', aliases: [], code: '7', type: 'realm_emoji', url: '/e/7.png' } as EmojiEntry,
    uni('grinning', '1f600'), uni('smile', '1f642'), uni('heart', '2764'), uni('us', '1f1fa-1f1f8'),
    uni('man_detective', '1f575-fe0f-200d-2642-fe0f'),
  ];

  it('come popular first, then the realm’s own, then the categories in order', () => {
    const sections = emojiSections(list, table);
    expect(sections.map((s) => s.id)).toEqual(['popular', 'custom', 'smileys', 'symbols', 'flags']);
    expect(sections[0]!.entries.map((e) => e.name)).toEqual(['smile', 'heart', 'grinning']);
    expect(sections[1]!.entries.map((e) => e.name)).toEqual(['octopus_custom']);
    expect(sections[2]!.entries.map((e) => e.name)).toEqual(['grinning', 'smile']);
  });

  it('leave no emoji of the server’s table out: one no category names goes with the symbols', () => {
    const symbols = emojiSections(list, table).find((s) => s.id === 'symbols')!;
    expect(symbols.entries.map((e) => e.name)).toEqual(['heart', 'man_detective']);
  });

  it('are built from the data set with codes the picker compares (lower case, no FE0F), components left out', () => {
    const built = emojiCategoryTable([
      { unified: '1F600', category: 'Smileys & Emotion', sort_order: 2 },
      { unified: '263A-FE0F', category: 'Smileys & Emotion', sort_order: 1 },
      { unified: '1F3FB', category: 'Component', sort_order: 3 },
    ]);
    expect(built).toEqual([['Smileys & Emotion', '263a 1f600']]);
  });

  it('place every emoji of the server’s table in a category of the real data set', () => {
    const require = createRequire(__filename);
    const dataSet = JSON.parse(readFileSync(require.resolve('emoji-datasource/emoji.json'), 'utf8'));
    const names = JSON.parse(readFileSync(require.resolve('../../../../packages/emoji/data/emoji-names.json'), 'utf8')).emoji as Record<string, { code: string }>;
    const server = Object.entries(names).map(([name, e]) => uni(name, e.code));
    const sections = emojiSections(server, emojiCategoryTable(dataSet));
    const categorised = sections.filter((s) => s.id !== 'popular' && s.id !== 'custom').reduce((n, s) => n + s.entries.length, 0);
    expect(categorised).toBe(new Set(server.map((e) => e.code.replace(/-fe0f/g, ''))).size);
    // Nearly all find their own category; only a handful fall back to the symbols.
    const symbols = sections.find((s) => s.id === 'symbols')!.entries.length;
    expect(symbols).toBeLessThan(400);
    expect(sections.find((s) => s.id === 'flags')!.entries.length).toBeGreaterThan(200);
  });
});
