import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { ROLE } from '@chat/contracts';
import { runCommand } from '../cli/commands';
import { start } from '../app';
import { verifyPassword } from '../lib/passwords';
import { makeUser, startHarness, type Harness } from './support';

// What /server_settings and register say about logging in, the realm's authentication_methods
// setting, the development login's two modes, and the set-password command.

let h: Harness;
/** The same database and Redis, served by a second app running as in production. */
let prod: Awaited<ReturnType<typeof start>>;
beforeAll(async () => {
  h = await startHarness();
  prod = await start({ ...h.env.env, NODE_ENV: 'production' });
});
afterAll(async () => {
  await prod?.stop();
  await h?.close();
});

const PASSWORD = 'Yorick was a fellow of infinite jest';
const setMethods = (methods: Record<string, boolean>, who = h.realm.owner) =>
  h.as(who).patch('/realm').send({ authentication_methods: JSON.stringify(methods) });

describe('server_settings', () => {
  it('offers email and password login by default, and the development login outside production', async () => {
    const res = await h.as().get('/server_settings');
    expect(res.body).toMatchObject({ email_auth_enabled: true, require_email_format_usernames: true });
    expect(res.body.authentication_methods).toMatchObject({ password: true, email: true, dev: true, ldap: false, github: false });
  });

  it('never offers the development login in production', async () => {
    const { default: request } = await import('supertest');
    const { identityHeaders } = await import('@chat/testing');
    const res = await request(prod.url).get('/api/v1/server_settings').set(identityHeaders(h.realm.realmId));
    expect(res.body.authentication_methods).toMatchObject({ password: true, dev: false });
  });

  it("follows the realm's authentication_methods, and so do fetch_api_key and register's realm data", async () => {
    const u = await makeUser(h, ROLE.MEMBER);
    await runCommand(h.app.services, ['set-password', '--email', u.email, '--password', PASSWORD], () => undefined, () => undefined);
    expect((await setMethods({ Email: false })).body).toMatchObject({ result: 'success' });
    try {
      const settings = await h.as().get('/server_settings');
      expect(settings.body.email_auth_enabled).toBe(false);
      expect(settings.body.authentication_methods).toMatchObject({ password: false, email: false, dev: true });
      const login = await h.as().post('/fetch_api_key').send({ username: u.email, password: PASSWORD });
      expect(login.status).toBe(401);
      expect(login.body).toEqual({ result: 'error', code: 'PASSWORD_AUTH_DISABLED', msg: 'Password authentication is disabled in this organization' });
      const events = await h.eventsSince(0n);
      const change = events.reverse().find((e) => e.type === 'realm' && (e.event as { property?: string }).property === 'default');
      expect(change?.event).toMatchObject({
        type: 'realm', op: 'update_dict', property: 'default',
        data: { authentication_methods: { Email: { enabled: false, available: true }, Dev: { enabled: true, available: true }, GitHub: { enabled: false, available: false } } },
      });
    } finally {
      await setMethods({ Email: true });
    }
    const settings = await h.as().get('/server_settings');
    expect(settings.body.authentication_methods.password).toBe(true);
    expect((await h.as().post('/fetch_api_key').send({ username: u.email, password: PASSWORD })).body.api_key).toBe(u.apiKey);
  });

  it('lets only owners change authentication_methods, to backends this server has, never all off', async () => {
    expect((await setMethods({ Email: false }, h.realm.admin)).body).toMatchObject({ code: 'UNAUTHORIZED_PRINCIPAL', msg: 'Must be an organization owner' });
    expect((await setMethods({ Email: false, Dev: false })).body).toMatchObject({ code: 'BAD_REQUEST', msg: 'At least one authentication method must be enabled.' });
    expect((await setMethods({ GitHub: true })).body).toMatchObject({ code: 'BAD_REQUEST', msg: 'Invalid authentication method: GitHub' });
    expect((await setMethods({ Email: 'yes' } as never)).body).toMatchObject({ msg: 'authentication_methods["Email"] is not a boolean' });
    const bad = await h.as(h.realm.owner).patch('/realm').send({ authentication_methods: '{', name: 'Renamed' });
    expect(bad.body).toMatchObject({ code: 'INVALID_JSON' });
    // A refusal of another parameter leaves the methods as they were.
    const mixed = await h.as(h.realm.owner).patch('/realm').send({ authentication_methods: JSON.stringify({ Dev: false }), topics_policy: 'nonsense' });
    expect(mixed.body.result).toBe('error');
    expect((await h.as().get('/server_settings')).body.authentication_methods.dev).toBe(true);
    const realm = await h.db.realm.findUniqueOrThrow({ where: { id: h.realm.realmId } });
    expect(realm.name).not.toBe('Renamed');
  });
});

describe('development login', () => {
  it('hands out keys and lists people in development', async () => {
    const key = await h.as().post('/dev_fetch_api_key').send({ username: h.realm.member.email });
    expect(key.body).toEqual({ result: 'success', msg: '', api_key: h.realm.member.apiKey, email: h.realm.member.email, user_id: h.realm.member.id });
    const list = await h.as().get('/dev_list_users');
    expect(list.body.direct_users.map((u: { email: string }) => u.email)).toContain(h.realm.member.email);
  });

  it('answers as the family does when the realm turned it off', async () => {
    await setMethods({ Dev: false });
    try {
      const key = await h.as().post('/dev_fetch_api_key').send({ username: h.realm.member.email });
      expect(key.status).toBe(400);
      expect(key.body).toEqual({ result: 'error', code: 'BAD_REQUEST', msg: 'DevAuthBackend not enabled.' });
      expect((await h.as().get('/dev_list_users')).body.msg).toBe('DevAuthBackend not enabled.');
    } finally {
      await setMethods({ Dev: true });
    }
  });

  it('does not exist in production', async () => {
    const { default: request } = await import('supertest');
    const { identityHeaders } = await import('@chat/testing');
    const headers = identityHeaders(h.realm.realmId);
    const key = await request(prod.url).post('/api/v1/dev_fetch_api_key').set(headers).type('form').send({ username: h.realm.member.email });
    expect(key.status).toBe(400);
    expect(key.body).toEqual({ result: 'error', code: 'BAD_REQUEST', msg: 'Endpoint not available in production.' });
    const list = await request(prod.url).get('/api/v1/dev_list_users').set(headers);
    expect(list.body).toEqual({ result: 'error', code: 'BAD_REQUEST', msg: 'Endpoint not available in production.' });
    // Nor can an owner switch it on there.
    const owner = identityHeaders(h.realm.realmId, h.realm.owner);
    const enable = await request(prod.url).patch('/api/v1/realm').set(owner).type('form').send({ authentication_methods: JSON.stringify({ Dev: true }) });
    expect(enable.body).toMatchObject({ msg: 'Invalid authentication method: Dev' });
  });
});

describe('manage set-password', () => {
  async function run(...argv: string[]) {
    const out: string[] = [];
    const err: string[] = [];
    const code = await runCommand(h.app.services, argv, (l) => out.push(l), (l) => err.push(l));
    return { code, out: out.join('\n'), err: err.join('\n') };
  }

  it('sets a strong password and refuses a weak one, a bot, and a missing source', async () => {
    const u = await makeUser(h, ROLE.MEMBER);
    expect(await run('set-password', '--email', u.email, '--password', PASSWORD)).toMatchObject({ code: 0, out: `Password set for ${u.email}` });
    const row = await h.db.user.findUniqueOrThrow({ where: { id: u.id } });
    expect(await verifyPassword(PASSWORD, row.passwordHash)).toBe(true);
    expect(await run('set-password', '--email', u.email, '--password', 'qwerty')).toMatchObject({ code: 1, err: 'set-password: The password is too weak.' });
    expect((await h.db.user.findUniqueOrThrow({ where: { id: u.id } })).passwordHash).toBe(row.passwordHash);
    expect((await run('set-password', '--email', h.realm.bot.email, '--password', PASSWORD)).err).toMatch(/is a bot/);
    expect((await run('set-password', '--email', u.email)).err).toMatch(/exactly one of --password-stdin and --password/);
    expect((await run('set-password', '--email', 'nobody@chat.test', '--password', PASSWORD)).err).toMatch(/No user nobody@chat.test/);
  });

  it('reads the password from standard input in a real process', () => {
    const root = path.resolve(__dirname, '../../../..');
    const email = h.realm.member2.email;
    const res = spawnSync(process.execPath, [path.join(root, 'node_modules/tsx/dist/cli.mjs'), 'services/users/src/cli/main.ts', 'set-password', '--email', email, '--password-stdin'], {
      cwd: root,
      env: { ...process.env, ...h.env.env },
      input: `${PASSWORD}\nignored second line\n`,
      encoding: 'utf8',
    });
    expect(res.stderr).toBe('');
    expect(res.status).toBe(0);
    expect(res.stdout.trim()).toBe(`Password set for ${email}`);
    expect(res.stdout).not.toContain(PASSWORD);
  });

  it('lets that password log in', async () => {
    const login = await h.as().post('/fetch_api_key').send({ username: h.realm.member2.email, password: PASSWORD });
    expect(login.body).toMatchObject({ api_key: h.realm.member2.apiKey, user_id: h.realm.member2.id });
  });
});
