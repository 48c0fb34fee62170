import { readFileSync } from 'node:fs';
import path from 'node:path';
import {
  canonicalEmojiName,
  EMOJI_NAME_COUNT,
  emojiCodeForName,
  emojiCodeSpellings,
  emojiNameMatchesCode,
  emojiNamesForCode,
  familyEmojiCode,
  isExtraEmoji,
  isUnicodeEmojiCode,
  normalizeEmojiCode,
  serverEmojiData,
  splitUnicodeEmoji,
} from '..';

// The vendored table itself, read independently of the module under test.
const raw = JSON.parse(readFileSync(path.join(__dirname, '../../data/emoji-names.json'), 'utf8')) as {
  emoji: Record<string, { code: string; aliases: string[] }>;
};
const entries = Object.entries(raw.emoji);
const withFe0f = entries.filter(([, e]) => e.code.split('-').includes('fe0f'));

describe('the family emoji table', () => {
  it('holds every canonical name and alias', () => {
    const total = entries.reduce((n, [, e]) => n + 1 + e.aliases.length, 0);
    expect(total).toBe(2887);
    expect(EMOJI_NAME_COUNT).toBe(total);
  });

  it('resolves every name and alias to its code, and the code back to its canonical name', () => {
    for (const [canonical, e] of entries) {
      for (const name of [canonical, ...e.aliases]) {
        expect([name, emojiCodeForName(name)]).toEqual([name, e.code]);
        expect(emojiNameMatchesCode(name, e.code)).toBe(true);
      }
      expect(canonicalEmojiName(e.code)).toBe(canonical);
      expect(emojiNamesForCode(e.code)).toEqual([canonical, ...e.aliases]);
    }
  });

  it('uses the family names where other emoji data sets differ', () => {
    expect(emojiCodeForName('smile')).toBe('1f642');
    expect(emojiCodeForName('big_smile')).toBe('1f604');
    expect(emojiNamesForCode('1f44d')).toEqual(['+1', 'thumbs_up', 'like']);
    expect(canonicalEmojiName('1f44d')).toBe('+1');
    expect(emojiNameMatchesCode('thumbs_up', '1f44d')).toBe(true);
    expect(emojiNameMatchesCode('thumbs_up', '1f44e')).toBe(false);
    expect(emojiCodeForName('no_such_emoji')).toBeUndefined();
  });

  it('accepts codes with or without FE0F but answers with the family spelling', () => {
    expect(withFe0f.length).toBeGreaterThan(0);
    for (const [canonical, e] of withFe0f) {
      const bare = e.code.split('-').filter((p) => p !== 'fe0f').join('-');
      expect(familyEmojiCode(bare)).toBe(e.code);
      expect(familyEmojiCode(e.code)).toBe(e.code);
      expect(canonicalEmojiName(bare)).toBe(canonical);
      expect(emojiNameMatchesCode(canonical, bare)).toBe(true);
      expect(emojiCodeSpellings(bare).sort()).toEqual([bare, e.code].sort());
    }
    expect(familyEmojiCode('2764-fe0f')).toBe('2764');
    expect(familyEmojiCode('1F44D')).toBe('1f44d');
    expect(familyEmojiCode('2a-20e3')).toBe('002a-20e3');
    expect(emojiCodeSpellings('1f44d')).toEqual(['1f44d']);
  });

  it('rejects what is not a Unicode emoji code of the table', () => {
    for (const code of ['zzzz', '', 'zulip', '1f3fd', '1f44d-', '-1f44d', '1f44d--1f44e', '110000000']) {
      expect([code, isUnicodeEmojiCode(code)]).toEqual([code, false]);
    }
    expect(normalizeEmojiCode('ZZ')).toBe('zz');
    expect(isExtraEmoji('zulip')).toBe(true);
    expect(emojiCodeForName('zulip')).toBeUndefined();
  });

  it('builds the mobile data file from the same table', () => {
    const data = serverEmojiData().code_to_names;
    expect(Object.keys(data)).toHaveLength(entries.length);
    expect(Object.values(data).reduce((n, names) => n + names.length, 0)).toBe(EMOJI_NAME_COUNT);
    expect(data['1f44d']).toEqual(['+1', 'thumbs_up', 'like']);
  });
});

describe('emoji typed as characters', () => {
  it('finds them with or without FE0F, longest sequence first', () => {
    const detective = withFe0f.find(([n]) => n === 'man_detective')![1].code;
    const chars = (code: string) => code.split('-').map((h) => String.fromCodePoint(parseInt(h, 16))).join('');
    expect(splitUnicodeEmoji(`a 👍 b ❤️ c ${chars(detective)} ${chars(detective).replace(/\uFE0F/g, '')} 1️⃣ 1`)).toEqual([
      'a ',
      { char: '👍', code: '1f44d' },
      ' b ',
      { char: '❤️', code: '2764' },
      ' c ',
      { char: chars(detective), code: detective },
      ' ',
      { char: chars(detective).replace(/\uFE0F/g, ''), code: detective },
      ' ',
      { char: '1️⃣', code: '0031-20e3' },
      ' 1',
    ]);
    expect(splitUnicodeEmoji('plain text')).toEqual(['plain text']);
  });
});

test('digits, # and * are keycap emoji only with the keycap mark, whatever text surrounds them', () => {
  const parts = splitUnicodeEmoji('call 1\u{fe0f}\u{20e3} or #\u{20e3}, not 123, #4 or *5 \u{1f600}');
  expect(parts.filter((p) => typeof p !== 'string').map((p) => (p as { code: string }).code)).toEqual(['0031-20e3', '0023-20e3', '1f600']);
  expect(parts.filter((p) => typeof p === 'string').join('')).toBe('call  or , not 123, #4 or *5 ');
});
