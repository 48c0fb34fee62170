import { createHash } from 'node:crypto';
import { avatarUrl, avatarUrlField, gravatarUrl, realmIconSource, realmIconUrl } from '..';

const md5 = (s: string) => createHash('md5').update(s).digest('hex');
const realmUrl = 'https://chat.test';
const gravatarUser = { id: 4, deliveryEmail: 'Iago@Example.test', avatarSource: 'G', avatarVersion: 3, isBot: false };
const uploadedUser = { ...gravatarUser, avatarSource: 'U' };

describe('gravatarUrl', () => {
  it('hashes the address in lower case without surrounding space', () => {
    expect(gravatarUrl(' Iago@Example.test ', 3)).toBe(`https://secure.gravatar.com/avatar/${md5('iago@example.test')}?d=identicon&version=3`);
  });

  it('asks for the medium size when told', () => {
    expect(gravatarUrl('iago@example.test', 1, true)).toBe(`https://secure.gravatar.com/avatar/${md5('iago@example.test')}?d=identicon&s=500&version=1`);
  });
});

describe('avatarUrl', () => {
  it('sends uploaded avatars through /avatar/{id} with their version', () => {
    expect(avatarUrl(uploadedUser, realmUrl)).toBe('https://chat.test/avatar/4?version=3');
    expect(avatarUrl(uploadedUser, realmUrl, true)).toBe('https://chat.test/avatar/4/medium?version=3');
  });

  it('uses Gravatar for the others', () => {
    expect(avatarUrl(gravatarUser, realmUrl)).toBe(gravatarUrl('iago@example.test', 3));
    expect(avatarUrl(gravatarUser, realmUrl, true)).toBe(gravatarUrl('iago@example.test', 3, true));
  });
});

describe('avatarUrlField', () => {
  const opts = { realmUrl, clientGravatar: true, emailPublic: true };

  it('is null when the client computes the gravatar of a public address, a bot\'s too', () => {
    expect(avatarUrlField(gravatarUser, opts)).toBeNull();
    const [gravatarBot, uploadedBot] = [{ ...gravatarUser, isBot: true }, { ...uploadedUser, isBot: true }];
    expect(avatarUrlField(gravatarBot, opts)).toBeNull();
    expect(avatarUrlField(uploadedBot, opts)).toBe('https://chat.test/avatar/4?version=3');
  });

  it('is a URL when the client cannot compute it', () => {
    expect(avatarUrlField(gravatarUser, { ...opts, clientGravatar: false })).toBe(avatarUrl(gravatarUser, realmUrl));
    expect(avatarUrlField(gravatarUser, { ...opts, emailPublic: false })).toBe(avatarUrl(gravatarUser, realmUrl));
    expect(avatarUrlField(uploadedUser, opts)).toBe('https://chat.test/avatar/4?version=3');
  });
});

describe('realm icon', () => {
  it('is the uploaded icon when there is one', () => {
    const realm = { stringId: 'zephyr', iconUrl: 'https://chat.test/user_avatars/1/realm/icon.png?version=2' };
    expect(realmIconUrl(realm)).toBe(realm.iconUrl);
    expect(realmIconSource(realm)).toBe('U');
  });

  it('is an identicon of the string id otherwise, "root" for the root realm', () => {
    expect(realmIconUrl({ stringId: 'zephyr', iconUrl: null })).toBe(`https://secure.gravatar.com/avatar/${md5('zephyr')}?d=identicon`);
    expect(realmIconUrl({ stringId: '', iconUrl: null })).toBe(`https://secure.gravatar.com/avatar/${md5('root')}?d=identicon`);
    expect(realmIconSource({ iconUrl: null })).toBe('G');
  });
});
