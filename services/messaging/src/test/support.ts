import request from 'supertest';
import { identityHeaders, seedRealm, setupTestEnv, TEST_REALM_URL, type SeededRealm, type SeededUser, type TestEnv } from '@chat/testing';
import type { ServiceHandle } from '@chat/kit';
import { start } from '../app';
import { loadActor } from '../lib/caller';
import { doCreateStream, type NewStream } from '../actions/streams';
import { doSubscribeUsers } from '../actions/subscriptions';

export interface Harness {
  env: TestEnv;
  realm: SeededRealm;
  service: ServiceHandle;
  /** supertest agent bound to the running service. */
  api: ReturnType<typeof request>;
  as(user: SeededUser): Record<string, string>;
  createStream(creator: SeededUser, spec: NewStream, subscribers: SeededUser[]): Promise<number>;
  close(): Promise<void>;
}

export async function startHarness(config: Record<string, string> = {}): Promise<Harness> {
  const env = await setupTestEnv();
  const realm = await seedRealm(env.db);
  const service = await start({ ...env.env, PORT: '0', LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent', ...config });
  return {
    env,
    realm,
    service,
    api: request(service.url),
    as: (user) => identityHeaders(realm.realmId, user),
    async createStream(creator, spec, subscribers) {
      const actor = await loadActor(env.db, {
        realmId: realm.realmId,
        realmUrl: TEST_REALM_URL,
        userId: creator.id,
        email: creator.email,
        role: creator.role,
        isBot: creator.isBot,
      });
      return env.db.$transaction(async (tx) => {
        const stream = await doCreateStream(tx, actor, spec);
        await doSubscribeUsers(tx, actor, stream, subscribers.map((u) => u.id));
        return stream.id;
      });
    },
    async close() {
      await service.stop();
      await env.close();
    },
  };
}

/** Outbox events of a type, oldest first, as the relay would publish them. */
export async function outboxEvents(env: TestEnv, type: string): Promise<Array<Record<string, any>>> {
  const rows = await env.db.outboxEvent.findMany({ where: { type }, orderBy: { id: 'asc' } });
  return rows.map((r) => r.payload as Record<string, any>);
}
