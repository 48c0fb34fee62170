import { hashPassword, isStrongPassword, PASSWORD_MIN_GUESSES, PASSWORD_MIN_LENGTH, verifyPassword } from '../lib/passwords';

// The hash format and the strength rule alone, no database (the API paths have their own tests).

describe('strength', () => {
  it('uses the family defaults', () => {
    expect(PASSWORD_MIN_LENGTH).toBe(6);
    expect(PASSWORD_MIN_GUESSES).toBe(10_000);
  });

  it.each(['', 'a', 'Zq8#v', 'password', 'Password1', 'qwertyuiop', 'abcabcabcabc', 'iloveyou', '12345678'])('refuses %j', (p) => {
    expect(isStrongPassword(p)).toBe(false);
  });

  it.each(['Zq8#vL', 'correct horse battery staple', 'Yorick was a fellow of infinite jest', 'ñandú-kriek-93'])('accepts %j', (p) => {
    expect(isStrongPassword(p)).toBe(true);
  });

  it('counts characters, not bytes or UTF-16 units', () => {
    // Five emoji are ten UTF-16 units but five characters: too short.
    expect(isStrongPassword('🦊🐙🦉🐝🦔')).toBe(false);
  });
});

describe('hashing', () => {
  it('records scheme, cost and salt in the string and verifies only the same password', async () => {
    const stored = await hashPassword('Zq8#vL-and-more');
    const [scheme, n, r, p, salt, hash] = stored.split('$');
    expect([scheme, n, r, p]).toEqual(['scrypt', '32768', '8', '1']);
    expect(Buffer.from(salt!, 'base64')).toHaveLength(16);
    expect(Buffer.from(hash!, 'base64')).toHaveLength(32);
    expect(await verifyPassword('Zq8#vL-and-more', stored)).toBe(true);
    expect(await verifyPassword('Zq8#vL-and-mor', stored)).toBe(false);
    expect(await verifyPassword('', stored)).toBe(false);
  });

  it('treats canonically equal Unicode spellings as the same password', async () => {
    const composed = 'caf\u00e9 au lait 1975';
    const decomposed = 'cafe\u0301 au lait 1975';
    expect(await verifyPassword(decomposed, await hashPassword(composed))).toBe(true);
  });

  it('answers false, never throws, for anything that is not one of its hashes', async () => {
    for (const stored of [null, '', 'plain', 'pbkdf2_sha256$1$a$b', 'scrypt$0$8$1$AAAA$BBBB', 'scrypt$32768$8$1$AAAA$', 'scrypt$32768$8$1$AAAA$BBBB$extra']) {
      await expect(verifyPassword('anything at all 42', stored)).resolves.toBe(false);
    }
  });
});
