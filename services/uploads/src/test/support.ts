import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Db } from '@chat/db';
import { flagBit, type MessageObject } from '@chat/contracts';
import { keyspace, OutboxRelay, recordEvent } from '@chat/bus';
import { DEFAULT_STREAM_PARTITIONS } from '@chat/kit';
import { identityHeaders, seedRealm, setupTestEnv, type SeededRealm, type SeededUser, type TestEnv } from '@chat/testing';
import { start, type UploadsHandle } from '../app';

export interface Harness {
  env: TestEnv;
  realm: SeededRealm;
  uploads: UploadsHandle;
  dir: string;
  /** Headers of a request from `user` through the gateway (anonymous without a user). */
  as(user?: SeededUser): Record<string, string>;
  close(): Promise<void>;
}

/** A private database, Redis prefix and upload folder, a seeded realm and a running service. */
export async function startHarness(overrides: Record<string, string> = {}): Promise<Harness> {
  const env = await setupTestEnv();
  const realm = await seedRealm(env.db);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'uploads-test-'));
  const uploads = await start({ ...env.env, UPLOADS_DIR: dir, ...overrides });
  // The events service runs the relay in a deployment; the link consumer reads what it publishes.
  const relay = new OutboxRelay({
    databaseUrl: env.databaseUrl,
    redis: env.redis,
    keys: keyspace(env.prefix, { partitions: DEFAULT_STREAM_PARTITIONS }),
    onError: () => undefined,
  });
  relay.start();
  return {
    env,
    realm,
    uploads,
    dir,
    as: (user) => identityHeaders(realm.realmId, user),
    async close() {
      await uploads.stop();
      await relay.stop();
      await env.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Every file below a folder, relative paths (to see what a failed upload left behind). */
export function filesUnder(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return (fs.readdirSync(dir, { recursive: true, withFileTypes: true }) as fs.Dirent[])
    .filter((e) => e.isFile())
    .map((e) => path.relative(dir, path.join(e.parentPath, e.name)));
}

/**
 * Channels and messages are the messaging service's; these write the shared rows the way it
 * does (a message, and a user_messages row per recipient), so access rules can be exercised
 * without that service.
 */
export async function createChannel(
  db: Db,
  realmId: number,
  name: string,
  opts: { inviteOnly?: boolean; webPublic?: boolean; historyPublic?: boolean; subscribers: SeededUser[] },
) {
  const stream = await db.stream.create({
    data: {
      realmId,
      name,
      nameKey: name.toLowerCase(),
      inviteOnly: opts.inviteOnly ?? false,
      isWebPublic: opts.webPublic ?? false,
      historyPublicToSubscribers: opts.historyPublic ?? true,
    },
  });
  for (const u of opts.subscribers) await db.subscription.create({ data: { userId: u.id, streamId: stream.id } });
  return stream;
}

export async function subscribe(db: Db, streamId: number, user: SeededUser) {
  await db.subscription.upsert({
    where: { userId_streamId: { userId: user.id, streamId } },
    create: { userId: user.id, streamId },
    update: { active: true },
  });
}

/** Options of the message helpers: `announce` also records the `message` event, as a send does. */
export interface SendOptions {
  announce?: boolean;
}

async function announce(db: Db, message: { id: number; realmId: number }, users: number[]) {
  await db.$transaction((tx) =>
    recordEvent(tx, { realmId: message.realmId, type: 'message', users, event: { type: 'message', message: { id: message.id } as MessageObject } }),
  );
}

export async function sendChannelMessage(db: Db, realmId: number, sender: SeededUser, streamId: number, content: string, opts: SendOptions = {}) {
  const subs = await db.subscription.findMany({ where: { streamId, active: true } });
  const message = await db.message.create({
    data: {
      realmId,
      senderId: sender.id,
      recipientType: 'stream',
      streamId,
      topic: 'files',
      content,
      renderedContent: `<p>${content}</p>`,
      userMessages: {
        create: [...new Set([...subs.map((s) => s.userId), sender.id])].map((userId) => ({
          userId,
          flags: userId === sender.id ? flagBit('read') : 0n,
        })),
      },
    },
  });
  if (opts.announce) await announce(db, message, subs.map((x) => x.userId));
  return message;
}

export async function sendDirectMessage(db: Db, realmId: number, sender: SeededUser, to: SeededUser[], content: string, opts: SendOptions = {}) {
  const ids = [...new Set([sender.id, ...to.map((u) => u.id)])].sort((a, b) => a - b);
  const conversation = await db.directConversation.upsert({
    where: { realmId_memberKey: { realmId, memberKey: ids.join(',') } },
    create: { realmId, memberKey: ids.join(','), memberIds: ids },
    update: {},
  });
  const message = await db.message.create({
    data: {
      realmId,
      senderId: sender.id,
      recipientType: 'private',
      conversationId: conversation.id,
      content,
      renderedContent: `<p>${content}</p>`,
      userMessages: { create: ids.map((userId) => ({ userId, flags: flagBit('is_private') })) },
    },
  });
  if (opts.announce) await announce(db, message, ids);
  return message;
}

/** Domain events of a realm that reached its partition stream, oldest first. */
export async function streamEvents(h: Harness, type?: string): Promise<Array<{ type: string; event: Record<string, unknown>; users: unknown }>> {
  const key = h.uploads.services.keys.streamForRealm(h.realm.realmId);
  const entries = (await h.env.redis.xrange(key, '-', '+')) as Array<[string, string[]]>;
  const out = [];
  for (const [, flat] of entries) {
    const f: Record<string, string> = {};
    for (let i = 0; i + 1 < flat.length; i += 2) f[flat[i]] = flat[i + 1];
    const payload = JSON.parse(f.payload) as { event: Record<string, unknown>; users: unknown };
    if (!type || f.type === type) out.push({ type: f.type, event: payload.event, users: payload.users });
  }
  return out;
}

/** Polls until `check` returns a truthy value (the service works in the background). */
export async function eventually<T>(check: () => Promise<T | undefined | null | false>, timeoutMs = 10000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const v = await check();
    if (v) return v;
    if (Date.now() > until) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 50));
  }
}

export interface S3Server {
  endpoint: string;
  /** Environment that points the service at this server. */
  env: Record<string, string>;
  close(): Promise<void>;
}

/** A real S3-protocol server (s3rver) on a free port, storing under a temporary folder. */
export async function startS3(bucket = 'chat-uploads'): Promise<S3Server> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const S3rver = require('s3rver');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 's3rver-'));
  const server = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory: dir, configureBuckets: [{ name: bucket }] });
  const { port } = (await server.run()) as { port: number };
  const endpoint = `http://127.0.0.1:${port}`;
  return {
    endpoint,
    env: {
      UPLOADS_BACKEND: 's3',
      S3_ENDPOINT: endpoint,
      S3_BUCKET: bucket,
      S3_ACCESS_KEY_ID: 'S3RVER',
      S3_SECRET_ACCESS_KEY: 'S3RVER',
      S3_FORCE_PATH_STYLE: 'true',
    },
    async close() {
      await server.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** startHarness on local disk or, for 's3', against its own S3 server, closed with the harness. */
export async function startHarnessOn(backend: string, overrides: Record<string, string> = {}): Promise<Harness> {
  const s3 = backend === 's3' ? await startS3() : undefined;
  const h = await startHarness({ ...(s3?.env ?? {}), ...overrides });
  return {
    ...h,
    async close() {
      await h.close();
      await s3?.close();
    },
  };
}
