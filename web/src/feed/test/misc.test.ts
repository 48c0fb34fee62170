import { browseOrder, searchEmoji } from '../../emoji/search';
import type { EmojiEntry } from '../../emoji/data';
import { canMarkRead, narrowInfo } from '../narrowInfo';
import { groupReactions, reactorNames } from '../reactions';

describe('narrow descriptions', () => {
  it('tells channels, topics, people and searches apart', () => {
    expect(narrowInfo([{ operator: 'channel', operand: '12-general' }, { operator: 'topic', operand: 'x' }])).toEqual({ kind: 'topic', streamId: 12, topic: 'x' });
    expect(narrowInfo([{ operator: 'dm', operand: '3,4-group' }, { operator: 'near', operand: '77' }])).toEqual({ kind: 'dm', userIds: [3, 4], near: 77 });
    expect(narrowInfo([{ operator: 'is', operand: 'starred' }]).kind).toBe('starred');
    expect(narrowInfo([]).kind).toBe('feed');
    expect(narrowInfo([{ operator: 'search', operand: 'lunch' }])).toEqual({ kind: 'search', search: 'lunch' });
    expect(canMarkRead([{ operator: 'search', operand: 'lunch' }])).toBe(false);
    expect(canMarkRead([{ operator: 'channel', operand: '1' }])).toBe(true);
  });
});

describe('reactions', () => {
  const r = (code: string, user: number, name = 'x') => ({ emoji_name: name, emoji_code: code, reaction_type: 'unicode_emoji', user_id: user, user: { id: user, email: '', full_name: '', is_mirror_dummy: false } });
  it('groups by emoji and names who reacted, the viewer first', () => {
    const groups = groupReactions([r('1f44d', 2, 'thumbs_up'), r('1f44d', 1, 'thumbs_up'), r('2764', 3), r('1f44d', 4, 'thumbs_up')], 1);
    expect(groups.map((g) => [g.code, g.userIds, g.mine])).toEqual([['1f44d', [2, 1, 4], true], ['2764', [3], false]]);
    const names: Record<number, string> = { 2: 'Ada', 4: 'Bo' };
    expect(reactorNames(groups[0]!, 1, (id) => names[id]!, 'You', 'and')).toBe('You, Ada and Bo');
  });
});

describe('emoji search', () => {
  const list: EmojiEntry[] = [
    { name: 'party_parrot', aliases: [], code: '1', type: 'realm_emoji' },
    { name: 'smile', aliases: [], code: '1f604', type: 'unicode_emoji' },
    { name: 'grinning_face_with_smiling_eyes', aliases: ['smiley'], code: '1f601', type: 'unicode_emoji' },
    { name: 'thumbs_up', aliases: ['+1', 'like'], code: '1f44d', type: 'unicode_emoji' },
  ];
  it('ranks exact and prefix matches before word and substring matches', () => {
    expect(searchEmoji(list, 'smil').map((e) => e.name)).toEqual(['smile', 'grinning_face_with_smiling_eyes']);
    expect(searchEmoji(list, ':like:').map((e) => e.name)).toEqual(['thumbs_up']);
    expect(searchEmoji(list, 'parrot').map((e) => e.name)).toEqual(['party_parrot']);
    expect(searchEmoji(list, 'thumbs up').map((e) => e.name)).toEqual(['thumbs_up']);
    expect(searchEmoji(list, '')).toHaveLength(4);
  });
});

describe('emoji browsing order', () => {
  it('puts custom emoji first, then popular and face emoji before symbols', () => {
    const list: EmojiEntry[] = [
      { name: 'tm', aliases: [], code: '2122', type: 'unicode_emoji' },
      { name: 'grinning', aliases: [], code: '1f600', type: 'unicode_emoji' },
      { name: 'party_parrot', aliases: [], code: '1', type: 'realm_emoji' },
      { name: 'smile', aliases: [], code: '1f604', type: 'unicode_emoji' },
      { name: '+1', aliases: [], code: '1f44d', type: 'unicode_emoji' },
    ];
    expect(browseOrder(list).map((e) => e.name)).toEqual(['party_parrot', '+1', 'grinning', 'smile', 'tm']);
  });
});
