import { hashPassword, isStrongPassword, verifyPassword } from '../lib/passwords';
import { startHarness, type Harness } from './support';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h?.close());

let n = 0;
const create = (password?: string, email = `pw${++n}@chat.test`) =>
  h.as(h.realm.admin).post('/users').send({ email, full_name: `Password ${n}`, ...(password === undefined ? {} : { password }) });

describe('POST /users with a password', () => {
  it('stores a salted scrypt hash that verifies, never the password', async () => {
    const res = await create('correct horse battery staple');
    expect(res.body).toEqual({ result: 'success', msg: '', user_id: expect.any(Number) });
    const row = await h.db.user.findUniqueOrThrow({ where: { id: res.body.user_id } });
    expect(row.passwordHash).toMatch(/^scrypt\$32768\$8\$1\$[A-Za-z0-9+/=]{24}\$[A-Za-z0-9+/=]{44}$/);
    expect(row.passwordHash).not.toContain('horse');
    expect(await verifyPassword('correct horse battery staple', row.passwordHash)).toBe(true);
    expect(await verifyPassword('correct horse battery stapler', row.passwordHash)).toBe(false);
  });

  it('salts each hash: the same password never gives the same string', async () => {
    const a = (await create('same-password-twice-9')).body.user_id as number;
    const b = (await create('same-password-twice-9')).body.user_id as number;
    const [ra, rb] = await Promise.all([a, b].map((id) => h.db.user.findUniqueOrThrow({ where: { id } })));
    expect(ra!.passwordHash).not.toBe(rb!.passwordHash);
  });

  it('verifies with the parameters recorded in the hash, so they can be raised later', async () => {
    const stored = await hashPassword('kept-for-years');
    const [, , r, p, salt] = stored.split('$');
    // The same password under other (older) parameters still verifies by what the string says.
    const { scryptSync } = await import('node:crypto');
    const older = ['scrypt', 1024, r, p, salt, scryptSync('kept-for-years', Buffer.from(salt!, 'base64'), 32, { N: 1024, r: Number(r), p: Number(p) }).toString('base64')].join('$');
    expect(await verifyPassword('kept-for-years', older)).toBe(true);
    expect(await verifyPassword('kept-for-years', 'scrypt$x$8$1$AAAA$BBBB')).toBe(false);
    expect(await verifyPassword('kept-for-years', null)).toBe(false);
  });

  it.each(['', 'abc', 'abcdef', 'password', 'qwerty123'])('refuses the weak password %j with nothing written', async (password) => {
    const email = `weak${++n}@chat.test`;
    const res = await create(password, email);
    expect(res.body).toEqual({ result: 'error', code: 'BAD_REQUEST', msg: 'The password is too weak.' });
    expect(await h.db.user.findFirst({ where: { email } })).toBeNull();
  });

  it('checks the address before the password, as the family does', async () => {
    expect((await create('abc', 'not-an-address')).body.msg).toBe('Invalid address.');
  });

  it('leaves the password unset when none is given', async () => {
    const res = await create();
    expect((await h.db.user.findUniqueOrThrow({ where: { id: res.body.user_id } })).passwordHash).toBeNull();
  });

  it('applies the length and guess rules', () => {
    expect(isStrongPassword('Zq8#vL')).toBe(true);
    expect(isStrongPassword('Zq8#v')).toBe(false);
  });
});
