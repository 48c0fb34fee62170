import request from 'supertest';
import { identityHeaders, seedRealm, setupTestEnv, type SeededRealm, type SeededUser, type TestEnv } from '@chat/testing';
import { start } from '../app';

export type Harness = Awaited<ReturnType<typeof startHarness>>;

/**
 * The real users app on a free port over this test file's own database and Redis prefix, a
 * seeded realm, and helpers that call it as a given user (or anonymously).
 */
export async function startHarness(extraEnv: Record<string, string> = {}) {
  const env: TestEnv = await setupTestEnv();
  const realm: SeededRealm = await seedRealm(env.db);
  const app = await start({ ...env.env, ...extraEnv });
  const as = (user?: SeededUser, realmId = realm.realmId) => {
    const headers = identityHeaders(realmId, user);
    const agent = request(app.url);
    return {
      get: (path: string) => agent.get(`/api/v1${path}`).set(headers),
      post: (path: string) => agent.post(`/api/v1${path}`).set(headers).type('form'),
      patch: (path: string) => agent.patch(`/api/v1${path}`).set(headers).type('form'),
      delete: (path: string) => agent.delete(`/api/v1${path}`).set(headers).type('form'),
      site: (path: string) => agent.get(path).set(headers),
    };
  };
  return {
    env,
    db: env.db,
    realm,
    app,
    as,
    /** The outbox rows recorded since `afterId`, oldest first, as {type, event, users}. */
    async eventsSince(afterId = 0n) {
      const rows = await env.db.outboxEvent.findMany({ where: { id: { gt: afterId } }, orderBy: { id: 'asc' } });
      return rows.map((r) => ({ id: r.id, type: r.type, ...(r.payload as { event: Record<string, unknown>; users: number[] | 'realm' }) }));
    },
    async lastEventId(): Promise<bigint> {
      const row = await env.db.outboxEvent.findFirst({ orderBy: { id: 'desc' } });
      return row?.id ?? 0n;
    },
    async close() {
      await app.stop();
      await env.close();
    },
  };
}

/** Names of the seeded accounts, one per role plus a bot; usable in it.each before seeding. */
export const ROLE_NAMES = ['owner', 'administrator', 'moderator', 'member', 'guest', 'bot'] as const;
export type RoleName = (typeof ROLE_NAMES)[number];

export function userOf(realm: SeededRealm, name: RoleName): SeededUser {
  const map: Record<RoleName, SeededUser> = {
    owner: realm.owner,
    administrator: realm.admin,
    moderator: realm.moderator,
    member: realm.member,
    guest: realm.guest,
    bot: realm.bot,
  };
  return map[name];
}

/** Every seeded account with its role name. */
export function everyRole(realm: SeededRealm): Array<[RoleName, SeededUser]> {
  return ROLE_NAMES.map((n) => [n, userOf(realm, n)]);
}

let extraCounter = 0;

/** A fresh account made through the real action, for tests that change or deactivate people. */
export async function makeUser(
  h: { db: import('@chat/db').Db; realm: SeededRealm },
  role: number,
  opts: { botOwnerId?: number; name?: string } = {},
): Promise<SeededUser> {
  const { doCreateUser } = await import('@chat/realm');
  extraCounter += 1;
  const local = `extra${extraCounter}-${Math.random().toString(36).slice(2, 8)}`;
  const u = await doCreateUser(h.db, {
    realmId: h.realm.realmId,
    email: `${local}@chat.test`,
    fullName: opts.name ?? `Extra ${extraCounter}`,
    role,
    isBot: opts.botOwnerId !== undefined,
    botType: opts.botOwnerId !== undefined ? 1 : null,
    botOwnerId: opts.botOwnerId ?? null,
  });
  return { id: u.id, email: u.email, apiKey: u.apiKey, role: u.role, isBot: u.isBot, fullName: u.fullName };
}
