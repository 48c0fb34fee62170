import jwt from 'jsonwebtoken';
import { ROLE } from '@chat/contracts';
import { createRedis } from '@chat/bus';
import { runCommand } from '../cli/commands';
import { readConfig } from '../config';
import { makeUser, startHarness, type Harness } from './support';

let h: Harness;
const KEY = 'a-realm-jwt-secret-of-some-length';

beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h?.close());

const fetchKey = (body: Record<string, string>) => h.as().post('/jwt/fetch_api_key').send(body);

describe('POST /jwt/fetch_api_key', () => {
  it('is refused until the realm has a key', async () => {
    const res = await fetchKey({ token: jwt.sign({ email: h.realm.member.email }, KEY) });
    expect(res.body).toEqual({ result: 'error', code: 'BAD_REQUEST', msg: 'JWT authentication is not enabled for this organization' });
  });

  it('is configured from the command line', async () => {
    const redis = createRedis(h.env.redisUrl, { name: 'jwt-test' });
    const out: string[] = [];
    const code = await runCommand({ db: h.db, redis, config: readConfig(h.env.env) }, ['set-jwt-key', '--key', KEY, '--algorithms', 'HS256,HS384'], (l) => out.push(l), (l) => out.push(l));
    redis.disconnect();
    expect(code).toBe(0);
    expect(await h.db.realmJwtConfig.findUniqueOrThrow({ where: { realmId: h.realm.realmId } })).toMatchObject({ key: KEY, algorithms: ['HS256', 'HS384'] });
  });

  it('exchanges a signed token for the API key of the user in its email claim', async () => {
    const res = await fetchKey({ token: jwt.sign({ email: h.realm.member.email }, KEY, { algorithm: 'HS384', expiresIn: 60 }) });
    expect(res.body).toEqual({ result: 'success', msg: '', api_key: h.realm.member.apiKey, email: h.realm.member.email });
  });

  it('adds the User object with include_profile', async () => {
    const res = await fetchKey({ token: jwt.sign({ email: h.realm.admin.email }, KEY), include_profile: 'true' });
    expect(res.body.user).toMatchObject({ user_id: h.realm.admin.id, role: ROLE.ADMINISTRATOR, delivery_email: h.realm.admin.email, is_admin: true });
    expect(res.body.user.avatar_url).toMatch(/^https:/);
  });

  it('refuses unsigned, expired, wrongly signed and wrongly typed tokens', async () => {
    const cases: Array<[string, string]> = [
      [jwt.sign({ email: h.realm.member.email }, '', { algorithm: 'none' }), 'Bad JSON web token'],
      [jwt.sign({ email: h.realm.member.email, exp: Math.floor(Date.now() / 1000) - 10 }, KEY), 'Bad JSON web token'],
      [jwt.sign({ email: h.realm.member.email }, 'some-other-secret-entirely'), 'Bad JSON web token'],
      [jwt.sign({ email: h.realm.member.email }, KEY, { algorithm: 'HS512' }), 'Bad JSON web token'],
      ['not.a.token', 'Bad JSON web token'],
      [jwt.sign({ sub: 'x' }, KEY), 'No email specified in JSON web token claims'],
      ['', 'No JSON web token passed in request'],
    ];
    for (const [token, msg] of cases) {
      const res = await fetchKey({ token });
      expect([token, res.body]).toEqual([token, { result: 'error', code: 'BAD_REQUEST', msg }]);
    }
  });

  it('refuses unknown and deactivated users', async () => {
    const unknown = await fetchKey({ token: jwt.sign({ email: 'nobody@chat.test' }, KEY) });
    expect(unknown.status).toBe(401);
    expect(unknown.body).toMatchObject({ code: 'AUTHENTICATION_FAILED' });
    const gone = await makeUser(h, ROLE.MEMBER);
    await h.db.user.update({ where: { id: gone.id }, data: { isActive: false } });
    const res = await fetchKey({ token: jwt.sign({ email: gone.email }, KEY) });
    expect(res.body).toMatchObject({ code: 'USER_DEACTIVATED', msg: 'Account is deactivated' });
  });

  it('answers the same for callers that do send credentials', async () => {
    const res = await h.as(h.realm.guest).post('/jwt/fetch_api_key').send({ token: jwt.sign({ email: h.realm.guest.email }, KEY) });
    expect(res.body.api_key).toBe(h.realm.guest.apiKey);
  });
});

describe('development login', () => {
  it('lists users and hands out keys outside production', async () => {
    const list = await h.as().get('/dev_list_users');
    expect(list.body.direct_admins.map((u: { email: string }) => u.email)).toEqual([h.realm.owner.email, h.realm.admin.email]);
    const key = await h.as().post('/dev_fetch_api_key').send({ username: h.realm.member.email });
    expect(key.body).toMatchObject({ api_key: h.realm.member.apiKey, email: h.realm.member.email });
  });
});
