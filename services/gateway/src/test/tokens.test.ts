import { edgeIdentity, signIdentity, verifyIdentity } from '@chat/kit';
import { TEST_INTERNAL_SECRET } from '@chat/testing';
import { IdentityTokens } from '../tokens';

describe('IdentityTokens', () => {
  const realm = { id: 3, url: 'http://sub.chat.test' };
  const user = { userId: 9, email: 'a@x', role: 400, isBot: false };

  afterEach(() => jest.restoreAllMocks());

  it('gives the token signing would give, reusing it only for the same user, realm, address, session and second', () => {
    const now = jest.spyOn(Date, 'now').mockReturnValue(1_800_000_000_400);
    const tokens = new IdentityTokens(TEST_INTERNAL_SECRET);
    const identity = edgeIdentity(realm, user, '10.0.0.1');
    const first = tokens.sign(identity, user, realm);
    expect(first).toBe(signIdentity(TEST_INTERNAL_SECRET, identity));
    expect(verifyIdentity(TEST_INTERNAL_SECRET, first)).toEqual(identity);
    now.mockReturnValue(1_800_000_000_900);
    expect(tokens.sign(edgeIdentity(realm, user, '10.0.0.1'), user, realm)).toBe(first);
    // Another address, another realm object, or the next second: signed anew.
    const elsewhere = edgeIdentity(realm, user, '10.0.0.2');
    expect(tokens.sign(elsewhere, user, realm)).toBe(signIdentity(TEST_INTERNAL_SECRET, elsewhere));
    const otherRealm = { ...realm, url: 'http://other.chat.test' };
    const there = edgeIdentity(otherRealm, user, '10.0.0.2');
    expect(tokens.sign(there, user, otherRealm)).toBe(signIdentity(TEST_INTERNAL_SECRET, there));
    now.mockReturnValue(1_800_000_001_000);
    const later = tokens.sign(edgeIdentity(otherRealm, user, '10.0.0.2'), user, otherRealm);
    expect(later).not.toBe(first);
    expect(later).toBe(signIdentity(TEST_INTERNAL_SECRET, there));
    // A person's browser sessions share one kept user object: each session gets its own token.
    const a = edgeIdentity(otherRealm, user, '10.0.0.2', 'session-a');
    const b = edgeIdentity(otherRealm, user, '10.0.0.2', 'session-b');
    expect(verifyIdentity(TEST_INTERNAL_SECRET, tokens.sign(a, user, otherRealm))).toMatchObject({ sessionId: 'session-a' });
    expect(verifyIdentity(TEST_INTERNAL_SECRET, tokens.sign(b, user, otherRealm))).toMatchObject({ sessionId: 'session-b' });
    // No user: nothing to key on, always signed.
    const anonymous = edgeIdentity(realm, undefined, '10.0.0.1');
    expect(tokens.sign(anonymous, undefined, realm)).toBe(signIdentity(TEST_INTERNAL_SECRET, anonymous));
  });
});
