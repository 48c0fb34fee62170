/**
 * Test harness shared by every service's component tests: a private database and Redis key
 * prefix per test file, a seeded realm with one user of each role (made through the real
 * actions), and identities signed the way the gateway signs them.
 */
import { randomBytes } from 'node:crypto';
import Redis from 'ioredis';
import type { Db } from '@chat/db';
import { createTestDatabase } from '@chat/db/testing';
import { BOT_TYPE, IDENTITY_HEADER, ROLE } from '@chat/contracts';
import { signIdentity } from '@chat/kit';
import { doCreateRealm, doCreateUser } from '@chat/realm';

export const TEST_INTERNAL_SECRET = 'test-internal-secret-for-component-tests';
export const TEST_REALM_URL = 'http://chat.test';

export interface TestEnv {
  db: Db;
  databaseUrl: string;
  redisUrl: string;
  /** Private key prefix for this test file. */
  prefix: string;
  redis: Redis;
  /** Environment for a service started in this test (DATABASE_URL, REDIS_URL, REDIS_PREFIX, ...). */
  env: Record<string, string>;
  close(): Promise<void>;
}

export async function setupTestEnv(): Promise<TestEnv> {
  const database = await createTestDatabase();
  const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
  const prefix = `t:${randomBytes(6).toString('hex')}:`;
  const redis = new Redis(redisUrl, { lazyConnect: false, maxRetriesPerRequest: 3 });
  return {
    db: database.db,
    databaseUrl: database.url,
    redisUrl,
    prefix,
    redis,
    env: {
      DATABASE_URL: database.url,
      REDIS_URL: redisUrl,
      REDIS_PREFIX: prefix,
      INTERNAL_SECRET: TEST_INTERNAL_SECRET,
      LOG_LEVEL: 'silent',
      NODE_ENV: 'test',
    },
    async close() {
      const keys: string[] = [];
      let cursor = '0';
      do {
        const [next, batch] = await redis.scan(cursor, 'MATCH', `*${prefix}*`, 'COUNT', 1000);
        cursor = next;
        keys.push(...batch);
      } while (cursor !== '0');
      if (keys.length) await redis.del(...keys);
      redis.disconnect();
      await database.drop();
    },
  };
}

export interface SeededUser {
  id: number;
  email: string;
  apiKey: string;
  role: number;
  isBot: boolean;
  fullName: string;
}

export interface SeededRealm {
  realmId: number;
  owner: SeededUser;
  admin: SeededUser;
  moderator: SeededUser;
  member: SeededUser;
  member2: SeededUser;
  guest: SeededUser;
  bot: SeededUser;
}

/** A realm with one user per role and a generic bot, through the same actions production uses. */
export async function seedRealm(db: Db, stringId = ''): Promise<SeededRealm> {
  const realm = await doCreateRealm(db, { stringId, name: 'Test Organization' });
  const make = async (local: string, fullName: string, role: number, bot?: { ownerId: number }) => {
    const u = await doCreateUser(db, {
      realmId: realm.id,
      email: `${local}@chat.test`,
      fullName,
      role,
      isBot: !!bot,
      botType: bot ? BOT_TYPE.GENERIC : null,
      botOwnerId: bot?.ownerId ?? null,
    });
    return { id: u.id, email: u.email, apiKey: u.apiKey, role: u.role, isBot: u.isBot, fullName: u.fullName };
  };
  const owner = await make('desdemona', 'Desdemona', ROLE.OWNER);
  const admin = await make('iago', 'Iago', ROLE.ADMINISTRATOR);
  const moderator = await make('shiva', 'Shiva', ROLE.MODERATOR);
  const member = await make('hamlet', 'King Hamlet', ROLE.MEMBER);
  const member2 = await make('othello', 'Othello', ROLE.MEMBER);
  const guest = await make('polonius', 'Polonius', ROLE.GUEST);
  const bot = await make('default-bot', 'Default Bot', ROLE.MEMBER, { ownerId: member.id });
  return { realmId: realm.id, owner, admin, moderator, member, member2, guest, bot };
}

/** Header a request needs to reach a service as `user` (or anonymously with no user). */
export function identityHeaders(realmId: number, user?: SeededUser, clientIp?: string): Record<string, string> {
  const token = signIdentity(TEST_INTERNAL_SECRET, {
    realmId,
    realmUrl: TEST_REALM_URL,
    ...(user ? { userId: user.id, email: user.email, role: user.role, isBot: user.isBot } : {}),
    ...(clientIp ? { clientIp } : {}),
  });
  return { [IDENTITY_HEADER]: token };
}
/**
 * Gives a realm group setting ("who may do X") to a system group, and sets the realm's waiting
 * period for full members; how an administrator's PATCH /realm leaves the row. For permission
 * tests of services that only read the setting.
 */
export async function setRealmGroupSetting(db: Db, realmId: number, setting: string, systemGroup: string, waitingPeriodDays = 0): Promise<void> {
  const group = await db.userGroup.findFirstOrThrow({ where: { realmId, name: systemGroup, isSystemGroup: true } });
  const realm = await db.realm.findUniqueOrThrow({ where: { id: realmId } });
  const settings = { ...(realm.settings as object), [setting]: group.id, waiting_period_threshold: waitingPeriodDays };
  await db.realm.update({ where: { id: realmId }, data: { settings } });
}

export * from './cluster';
export * from './nginx';
export * from './messages';
