import type { NavigationView, SavedSnippet, UserStatus } from '@chat/db';
import { alertWordList, navigationViewObject, savedSnippetObject, userStatusObject } from '..';

describe('navigationViewObject', () => {
  const view: NavigationView = { id: 1, realmId: 1, userId: 3, fragment: 'inbox', isPinned: true, name: null };

  it('leaves name out for built-in views', () => {
    const out = navigationViewObject(view);
    expect(out).toEqual({ fragment: 'inbox', is_pinned: true });
    expect(out).not.toHaveProperty('name');
  });

  it('gives the name of a custom view', () => {
    expect(navigationViewObject({ ...view, fragment: 'narrow/is/alerted', isPinned: false, name: 'Alerts' })).toEqual({
      fragment: 'narrow/is/alerted',
      is_pinned: false,
      name: 'Alerts',
    });
  });
});

it('savedSnippetObject gives the creation time in whole seconds', () => {
  const row: SavedSnippet = { id: 9, realmId: 1, userId: 3, title: 'Hi', content: 'Hello **there**', dateCreated: new Date(1_700_000_000_999) };
  expect(savedSnippetObject(row)).toEqual({ id: 9, title: 'Hi', content: 'Hello **there**', date_created: 1_700_000_000 });
});

it('alertWordList keeps the words in row order', () => {
  expect(alertWordList([{ word: 'fjord' }, { word: 'Ísland' }])).toEqual(['fjord', 'Ísland']);
  expect(alertWordList([])).toEqual([]);
});

describe('userStatusObject', () => {
  const row: UserStatus = {
    userId: 3, realmId: 1, statusText: '', emojiName: '', emojiCode: '', reactionType: 'unicode_emoji', updatedAt: new Date(),
  };

  it('is empty when nothing is set, or there is no row', () => {
    expect(userStatusObject(row)).toEqual({});
    expect(userStatusObject(null)).toEqual({});
    expect(userStatusObject(undefined)).toEqual({});
  });

  it('gives only the text when there is no emoji', () => {
    expect(userStatusObject({ ...row, statusText: 'On a boat' })).toEqual({ status_text: 'On a boat' });
  });

  it('gives the emoji with its code and type', () => {
    expect(userStatusObject({ ...row, emojiName: 'boat', emojiCode: '26f5' })).toEqual({
      emoji_name: 'boat',
      emoji_code: '26f5',
      reaction_type: 'unicode_emoji',
    });
  });
});
