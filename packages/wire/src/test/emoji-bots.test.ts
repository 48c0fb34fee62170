import type { User } from '@chat/db';
import { botObject, realmEmojiMap, realmEmojiObject, type RealmEmojiRow } from '..';

const emoji = (over: Partial<RealmEmojiRow>): RealmEmojiRow => ({
  id: 12, realmId: 3, name: 'tada', fileName: '12.png', isAnimated: false, deactivated: false, authorId: 9, ...over,
});

describe('realmEmojiObject', () => {
  it('gives the image under /user_avatars and no still image for a static emoji', () => {
    expect(realmEmojiObject(emoji({}))).toEqual({
      id: '12', name: 'tada', source_url: '/user_avatars/3/emoji/images/12.png', still_url: null, deactivated: false, author_id: 9,
    });
  });

  it('gives an animated emoji its still frame as PNG', () => {
    const e = realmEmojiObject(emoji({ fileName: '12.gif', isAnimated: true, deactivated: true, authorId: null }));
    expect(e).toMatchObject({ source_url: '/user_avatars/3/emoji/images/12.gif', still_url: '/user_avatars/3/emoji/images/still/12.png', deactivated: true, author_id: null });
  });
});

describe('realmEmojiMap', () => {
  it('keys emoji by id and leaves out those whose image is not stored yet', () => {
    const map = realmEmojiMap([emoji({}), emoji({ id: 13, name: 'pending', fileName: null })]);
    expect(Object.keys(map)).toEqual(['12']);
  });
});

describe('botObject', () => {
  const bot = {
    id: 5, email: 'helper-bot@chat.test', deliveryEmail: 'helper-bot@chat.test', fullName: 'Helper', botType: 2, isActive: false,
    apiKey: 'k'.repeat(32), botOwnerId: 4, avatarSource: 'U', avatarVersion: 3,
  } satisfies Partial<User>;

  it('gives every field of the realm_bots entry, with the avatar through /avatar when uploaded', () => {
    expect(botObject(bot, 'https://chat.test')).toEqual({
      user_id: 5, email: 'helper-bot@chat.test', full_name: 'Helper', bot_type: 2, is_active: false,
      avatar_url: 'https://chat.test/avatar/5?version=3', default_sending_stream: null, default_events_register_stream: null,
      default_all_public_streams: false, owner_id: 4, services: [],
    });
  });
});
