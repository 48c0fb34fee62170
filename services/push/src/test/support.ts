import { createHash, randomBytes } from 'node:crypto';
import request from 'supertest';
import nacl from 'tweetnacl';
import { keyspace, OutboxRelay } from '@chat/bus';
import { DEFAULT_STREAM_PARTITIONS } from '@chat/kit';
import { identityHeaders, type SeededUser, type TestEnv } from '@chat/testing';
import { createDb } from '@chat/db';
import { doRegisterPushServer, readRelayServer, userUuid } from '@chat/push-relay';
import { start, type PushHandle } from '../app';
import { realmUrl } from '../lib/realms';
import { RELAY_KEYS, RELAY_PUBLIC_KEY, seal } from './relay-shapes';
import { TestRelay } from './relay-server';

/**
 * Starts the push service on this test file's database and Redis prefix, with an outbox relay
 * beside it: in a deployment the events service runs the relay, and push reads what it publishes.
 */
export async function startPush(env: TestEnv, overrides: Record<string, string> = {}): Promise<PushHandle> {
  const relayUrl = overrides.PUSH_RELAY_URL;
  const testRelay = TestRelay.at(relayUrl);
  if (testRelay) await registerServer(env, testRelay.url);
  const push = await start({
    ...env.env,
    PORT: '0',
    PUSH_RELAY_TIMEOUT_MS: '1000',
    PUSH_RETRY_BASE_MS: '50',
    PUSH_RETRY_ATTEMPTS: '3',
    PUSH_ACTIVE_USER_DELAY_MS: '0',
    ...(process.env.PUSH_TEST_LOG ? { LOG_LEVEL: process.env.PUSH_TEST_LOG } : {}),
    ...overrides,
  });
  const relay = new OutboxRelay({ databaseUrl: env.databaseUrl, redis: env.redis, keys: testKeys(env), onError: () => undefined });
  relay.start();
  return {
    ...push,
    async stop() {
      await push.stop();
      await relay.stop();
    },
  };
}

/**
 * Registers this test file's server with the test relay, as `npm run manage --
 * register-push-server` does (the same function): the stored UUID and key are what the push
 * service authenticates with, and the realm upload names the organizations seeded so far.
 */
export async function registerServer(env: TestEnv, relayUrl: string): Promise<void> {
  const db = createDb(env.databaseUrl, { poolSize: 1 });
  try {
    // Once per test file: later services of the file use what is stored, as tests left it.
    if (await readRelayServer(db)) return;
    const address = { scheme: 'https' as const, host: 'chat.example.com', rootRealm: '' };
    await doRegisterPushServer(db, { relayUrl, hostname: 'chat.example.com', contactEmail: 'ops@example.org', timeoutMs: 5_000 }, (s) => realmUrl(address, s));
  } finally {
    await db.$disconnect();
  }
}

/** The test file's keys, with the partition count the services use when it is not set. */
function testKeys(env: TestEnv) {
  return keyspace(env.prefix, { partitions: DEFAULT_STREAM_PARTITIONS });
}

export function post(push: PushHandle, realmId: number, user: SeededUser, path: string, form: Record<string, unknown> = {}) {
  const body: Record<string, string> = {};
  for (const [k, v] of Object.entries(form)) if (v !== undefined) body[k] = String(v);
  return request(push.url).post(`/api/v1${path}`).set(identityHeaders(realmId, user)).type('form').send(body);
}

export function del(push: PushHandle, realmId: number, user: SeededUser, path: string, form: Record<string, unknown> = {}) {
  const body: Record<string, string> = {};
  for (const [k, v] of Object.entries(form)) if (v !== undefined) body[k] = String(v);
  return request(push.url).delete(`/api/v1${path}`).set(identityHeaders(realmId, user)).type('form').send(body);
}

/** What a mobile client generates for one device. */
export interface ClientDevice {
  deviceId: number;
  keyBytes: Buffer;
  pushKey: string;
  pushKeyId: number;
  token: string;
  tokenId: string;
  tokenKind: 'fcm' | 'apns';
  bouncerPublicKey: string;
  encryptedPushRegistration: string;
}

export function tokenIdOf(token: string): string {
  return createHash('sha256').update(token).digest().subarray(0, 8).toString('base64');
}

export function newPushKey(): { keyBytes: Buffer; pushKey: string } {
  const keyBytes = Buffer.concat([Buffer.from([0x31]), randomBytes(32)]);
  return { keyBytes, pushKey: keyBytes.toString('base64') };
}

export function clientDevice(deviceId: number, tokenKind: 'fcm' | 'apns' = 'fcm'): ClientDevice {
  const token = tokenKind === 'apns' ? randomBytes(32).toString('hex') : `fcm:${randomBytes(24).toString('base64')}`;
  return {
    deviceId,
    ...newPushKey(),
    pushKeyId: randomBytes(4).readUInt32BE(0),
    token,
    tokenId: tokenIdOf(token),
    tokenKind,
    bouncerPublicKey: RELAY_PUBLIC_KEY,
    encryptedPushRegistration: sealedRegistration(token, tokenKind),
  };
}

/**
 * What the app sends for the relay: `{token, token_kind, ios_app_id, timestamp}` as JSON in a
 * sealed box to the relay's public key, Base64. Only the relay can open it; the server forwards it.
 */
export function sealedRegistration(token: string, tokenKind: 'fcm' | 'apns', timestamp = Math.floor(Date.now() / 1000)): string {
  const plain = JSON.stringify({ token, token_kind: tokenKind, ios_app_id: tokenKind === 'apns' ? 'org.example.app' : null, timestamp });
  return Buffer.from(seal(Buffer.from(plain), RELAY_KEYS.publicKey)).toString('base64');
}

export function fullRegistration(d: ClientDevice): Record<string, unknown> {
  return { device_id: d.deviceId, ...keyFields(d), ...tokenFields(d) };
}

export function keyFields(d: ClientDevice): Record<string, unknown> {
  return { push_key: d.pushKey, push_key_id: d.pushKeyId };
}

export function tokenFields(d: ClientDevice): Record<string, unknown> {
  return {
    token_kind: d.tokenKind,
    token_id: d.tokenId,
    bouncer_public_key: d.bouncerPublicKey,
    encrypted_push_registration: d.encryptedPushRegistration,
  };
}

export async function waitFor<T>(what: string, probe: () => Promise<T | undefined | null | false>, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** Domain events of one type that reached the realm's stream (through the outbox relay). */
export async function streamEvents(env: TestEnv, realmId: number, type: string): Promise<Array<Record<string, unknown>>> {
  const keys = testKeys(env);
  const entries = (await env.redis.xrange(keys.streamForRealm(realmId), '-', '+')) as Array<[string, string[]]>;
  const out: Array<Record<string, unknown>> = [];
  for (const [, fields] of entries) {
    const f: Record<string, string> = {};
    for (let i = 0; i + 1 < fields.length; i += 2) f[fields[i]!] = fields[i + 1]!;
    if (f.type === type) out.push(JSON.parse(f.payload!));
  }
  return out;
}

/**
 * What a client does with a notification: Base64-decode encrypted_data, split off the 24-byte
 * nonce, and open the rest with libsodium's crypto_secretbox_open_easy under the 32 key bytes
 * that follow the 0x31 prefix of its push_key. Written against tweetnacl directly, not the
 * service's own helper, so that a wrong layout cannot pass by being wrong the same way twice.
 */
export function clientDecrypt(pushKey: Buffer, encryptedData: string): Record<string, any> | null {
  expect(pushKey[0]).toBe(0x31);
  const bytes = Buffer.from(encryptedData, 'base64');
  const opened = nacl.secretbox.open(bytes.subarray(24), bytes.subarray(0, 24), pushKey.subarray(1));
  return opened ? JSON.parse(Buffer.from(opened).toString('utf8')) : null;
}

/** Legacy tokens of a user whose relay sync has not finished (`<kind>:<token>`), as the service marks them. */
export async function legacyPending(env: TestEnv, userId: number): Promise<string[]> {
  return Object.keys(await env.redis.hgetall(testKeys(env).pushLegacyPending(userId)));
}

/**
 * How the relay is told who a legacy request is about: user id, the person's UUID and the
 * organization's (`form`: as form values, which are strings on the wire).
 */
export async function relayPerson(env: TestEnv, realmId: number, userId: number) {
  const realmUuid = (await env.db.pushRelayRealm.findUniqueOrThrow({ where: { realmId } })).uuid;
  return { user_id: userId, user_uuid: userUuid(realmUuid, userId), realm_uuid: realmUuid };
}

export async function relayPersonForm(env: TestEnv, realmId: number, userId: number) {
  const p = await relayPerson(env, realmId, userId);
  return { ...p, user_id: String(userId) };
}
