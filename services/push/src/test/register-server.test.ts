import { execFile } from 'node:child_process';
import path from 'node:path';
import { checkRegistrationInput, doRegisterPushServer } from '@chat/push-relay';
import { seedRealm, setupTestEnv, type SeededRealm, type TestEnv } from '@chat/testing';
import type { PushHandle } from '../app';
import { realmUrl } from '../lib/realms';
import { TestRelay } from './relay-server';
import { clientDevice, fullRegistration, post, startPush, waitFor } from './support';

/**
 * `npm run manage -- register-push-server`, run as the real command line process against the
 * test relay: what it sends, what it stores, and that the push service then authenticates with it.
 */
let env: TestEnv;
let realm: SeededRealm;
let relay: TestRelay;
let push: PushHandle | undefined;

const root = path.resolve(__dirname, '../../../..');

beforeAll(async () => {
  env = await setupTestEnv();
  realm = await seedRealm(env.db);
  relay = await TestRelay.start();
});

afterAll(async () => {
  await push?.stop();
  await relay?.close();
  await env?.close();
});

/** Runs the administrator's command line (what `npm run manage` runs) without blocking this process: the relay answers it. */
function manage(...args: string[]): Promise<{ code: number; out: string; err: string }> {
  const tsx = path.join(root, 'node_modules/tsx/dist/cli.mjs');
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [tsx, 'services/users/src/cli/main.ts', ...args],
      { cwd: root, env: { ...process.env, ...env.env, LOG_LEVEL: 'warn' }, timeout: 120_000 },
      (error, stdout, stderr) => resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, out: stdout, err: stderr }),
    );
  });
}

const basic = (uuid: string, key: string) => `Basic ${Buffer.from(`${uuid}:${key}`).toString('base64')}`;

describe('npm run manage -- register-push-server', () => {
  it('checks the host name and address as the relay does, before anything is stored', async () => {
    expect(() => checkRegistrationInput('not a host', 'ops@example.org')).toThrow('not a host is not a valid hostname');
    expect(() => checkRegistrationInput('chat.example.com', 'nobody')).toThrow('nobody is not a valid email address');
    expect(() => checkRegistrationInput('chat.example.com:8443', 'ops@example.org')).not.toThrow();
    expect(await env.db.pushRelayServer.count()).toBe(0);
  });

  it('registers this server, stores its UUID and key, uploads the organizations, rotates the key', async () => {
    const first = await manage(
      'register-push-server', '--relay-url', relay.url, '--contact-email', 'ops@example.org', '--hostname', 'chat.example.com', '--agree-to-terms-of-service',
    );
    expect(first.err).toBe('');
    expect(first.code).toBe(0);
    const server = await env.db.pushRelayServer.findUniqueOrThrow({ where: { id: 1 } });
    expect(first.out).toContain(`Registered this server at ${relay.url} as ${server.uuid}`);
    expect(first.out).toContain('Uploaded 1 organization;');
    expect(server).toMatchObject({ relayUrl: relay.url, hostname: 'chat.example.com', contactEmail: 'ops@example.org' });
    expect(server.registeredAt).not.toBeNull();
    expect(server.apiKey).toHaveLength(64);

    // The relay's register_server form, without credentials (it creates them).
    const [reg] = relay.requestsTo('/remotes/server/register');
    expect(reg!.authorization).toBeUndefined();
    expect(reg!.contentType).toBe('application/x-www-form-urlencoded');
    expect(reg!.body).toEqual({ zulip_org_id: server.uuid, zulip_org_key: server.apiKey, hostname: 'chat.example.com', contact_email: 'ops@example.org' });
    expect(relay.servers.get(server.uuid)).toMatchObject({ apiKey: server.apiKey, hostname: 'chat.example.com' });

    // Then the realm upload, authenticated, naming the organization by the UUID kept here.
    const [upload] = relay.requestsTo('/remotes/server/analytics');
    expect(upload!.authorization).toBe(basic(server.uuid, server.apiKey));
    const identity = await env.db.pushRelayRealm.findUniqueOrThrow({ where: { realmId: realm.realmId } });
    expect(JSON.parse(upload!.body.realms)).toEqual([
      expect.objectContaining({ id: realm.realmId, uuid: identity.uuid, uuid_owner_secret: identity.uuidOwnerSecret, url: 'http://127.0.0.1:9991', host: '127.0.0.1:9991', deactivated: false }),
    ]);
    expect(relay.realms.get(identity.uuid)).toBe(server.uuid);
    expect(identity.canPush).toBe(true);

    // --rotate-key: the command's own function, in process (one command line start is slow enough).
    const address = { scheme: 'http' as const, host: '127.0.0.1:9991', rootRealm: '' };
    const rotated = await doRegisterPushServer(
      env.db,
      { relayUrl: relay.url, hostname: 'chat.example.com', contactEmail: 'admin@example.org', rotateKey: true, timeoutMs: 5_000 },
      (s) => realmUrl(address, s),
    );
    expect(rotated).toEqual({ uuid: server.uuid, created: false, rotated: true, realms: 1 });
    const after = await env.db.pushRelayServer.findUniqueOrThrow({ where: { id: 1 } });
    expect(after.uuid).toBe(server.uuid);
    expect(after.apiKey).not.toBe(server.apiKey);
    expect(relay.requestsTo('/remotes/server/register').at(-1)!.body).toEqual({
      zulip_org_id: server.uuid,
      zulip_org_key: server.apiKey,
      new_org_key: after.apiKey,
      hostname: 'chat.example.com',
      contact_email: 'admin@example.org',
    });
    expect(relay.servers.get(server.uuid)!.apiKey).toBe(after.apiKey);

    // The push service authenticates with what the command stored.
    push = await startPush(env, { PUSH_RELAY_URL: relay.url });
    const d = clientDevice(1);
    expect((await post(push, realm.realmId, realm.member, '/mobile_push/register', fullRegistration(d))).body.result).toBe('success');
    await waitFor('relay registration', async () => {
      const row = await env.db.pushDevice.findUnique({ where: { userId_deviceId: { userId: realm.member.id, deviceId: 1n } } });
      return row?.pushTokenId != null;
    });
    expect(relay.requestsTo('/e2ee/register').at(-1)!.authorization).toBe(basic(server.uuid, after.apiKey));
  }, 240_000);
});
