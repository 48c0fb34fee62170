import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { createRedis, redisKeys } from '@chat/bus';
import { ROLE } from '@chat/contracts';
import { seedRealm, setupTestEnv, type SeededRealm, type TestEnv } from '@chat/testing';
import { readConfig } from '../config';
import { runCommand, type CliServices } from '../cli/commands';

let env: TestEnv;
let realm: SeededRealm;
let services: CliServices;

beforeAll(async () => {
  env = await setupTestEnv();
  realm = await seedRealm(env.db);
  services = { db: env.db, redis: createRedis(env.redisUrl, { name: 'cli-test' }), config: readConfig(env.env) };
});
afterAll(async () => {
  services?.redis.disconnect();
  await env?.close();
});

async function run(...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCommand(services, argv, (l) => out.push(l), (l) => err.push(l));
  return { code, out: out.join('\n'), err: err.join('\n') };
}

describe('manage command line', () => {
  it('creates a realm with its system groups, and refuses a duplicate', async () => {
    const res = await run('create-realm', '--string-id', 'acme', '--name', 'Acme Corp');
    expect(res).toMatchObject({ code: 0 });
    expect(res.out).toMatch(/Created realm \d+ \(Acme Corp\) at http:\/\/acme\.127\.0\.0\.1:9991/);
    const acme = await env.db.realm.findUniqueOrThrow({ where: { stringId: 'acme' } });
    expect(await env.db.userGroup.count({ where: { realmId: acme.id, isSystemGroup: true } })).toBe(8);
    const again = await run('create-realm', '--string-id', 'acme', '--name', 'Other');
    expect(again.code).toBe(1);
    expect(again.err).toMatch(/exists/);
  });

  it('creates users of a role and bots, printing a zuliprc', async () => {
    const res = await run('create-user', '--realm', 'acme', '--email', 'boss@acme.test', '--full-name', 'The Boss', '--role', 'owner');
    expect(res.code).toBe(0);
    const boss = await env.db.user.findFirstOrThrow({ where: { deliveryEmail: 'boss@acme.test' } });
    expect(boss.role).toBe(ROLE.OWNER);
    expect(res.out).toContain(`[api]\nemail=boss@acme.test\nkey=${boss.apiKey}\nsite=http://acme.127.0.0.1:9991`);
    const bot = await run('create-user', '--realm', 'acme', '--email', 'helper-bot@acme.test', '--full-name', 'Helper', '--bot', '--owner', 'boss@acme.test');
    expect(bot.code).toBe(0);
    const row = await env.db.user.findFirstOrThrow({ where: { deliveryEmail: 'helper-bot@acme.test' } });
    expect(row).toMatchObject({ isBot: true, botType: 1, botOwnerId: boss.id });
  });

  it('explains bad input instead of failing obscurely', async () => {
    expect((await run('create-user', '--realm', 'acme', '--email', 'boss@acme.test', '--full-name', 'Dup')).err).toMatch(/already in use/);
    expect((await run('create-user', '--realm', 'acme', '--email', 'x@acme.test', '--full-name', 'X', '--role', 'king')).err).toMatch(/--role must be/);
    expect((await run('create-user', '--realm', 'nowhere', '--email', 'x@acme.test', '--full-name', 'X')).err).toMatch(/No realm/);
    expect((await run('create-user', '--realm', 'acme', '--email', 'not-an-email', '--full-name', 'X')).code).toBe(1);
    expect((await run('frobnicate')).code).toBe(2);
    expect((await run('zuliprc', '--bogus')).code).toBe(1);
  });

  it('resets an API key and drops the gateway cache entry of the old one', async () => {
    const cacheKey = redisKeys(env.prefix).authCache(realm.member.apiKey);
    await env.redis.set(cacheKey, '{"cached":true}', 'EX', 60);
    const res = await run('reset-api-key', '--email', realm.member.email);
    expect(res.code).toBe(0);
    const after = await env.db.user.findUniqueOrThrow({ where: { id: realm.member.id } });
    expect(after.apiKey).not.toBe(realm.member.apiKey);
    expect(res.out).toContain(after.apiKey);
    expect(await env.redis.exists(cacheKey)).toBe(0);
  });

  it('prints the zuliprc of a user of the root realm', async () => {
    const res = await run('zuliprc', '--email', realm.admin.email);
    expect(res.out).toBe(`[api]\nemail=${realm.admin.email}\nkey=${realm.admin.apiKey}\nsite=http://127.0.0.1:9991`);
  });

  it('runs as a real process through tsx', () => {
    const root = path.resolve(__dirname, '../../../..');
    const res = spawnSync(process.execPath, [path.join(root, 'node_modules/tsx/dist/cli.mjs'), 'services/users/src/cli/main.ts', 'zuliprc', '--email', realm.owner.email], {
      cwd: root,
      env: { ...process.env, ...env.env, EXTERNAL_HOST: 'chat.example.org', EXTERNAL_SCHEME: 'https' },
      encoding: 'utf8',
    });
    expect(res.stderr).toBe('');
    expect(res.status).toBe(0);
    expect(res.stdout).toBe(`[api]\nemail=${realm.owner.email}\nkey=${realm.owner.apiKey}\nsite=https://chat.example.org\n`);
  });

  it('register-push-server wants a relay, a contact address and, the first time, the terms; it stores nothing before', async () => {
    // Against the relay it is tested in the push service's suite (register-server.test.ts).
    const noRelay = await run('register-push-server', '--relay-url', 'ftp://relay', '--contact-email', 'ops@example.org');
    expect(noRelay.code).toBe(1);
    expect(noRelay.err).toMatch(/an http\(s\) URL/);
    const noTerms = await run('register-push-server', '--relay-url', 'http://127.0.0.1:9', '--contact-email', 'ops@example.org');
    expect(noTerms.code).toBe(1);
    expect(noTerms.err).toMatch(/--agree-to-terms-of-service/);
    const noContact = await run('register-push-server', '--relay-url', 'http://127.0.0.1:9');
    expect(noContact.err).toMatch(/--contact-email is required/);
    expect(await env.db.pushRelayServer.count()).toBe(0);
  });
});
