/**
 * A large realm: its people written with set-based SQL as `doCreateUser` writes them (the user
 * row with the realm's initial settings and the membership of the members' system group), its
 * channels made through the API by its owner. Then 10,000 held long-polls of which the channels'
 * members receive messages.
 */
import { randomBytes } from 'node:crypto';
import Redis from 'ioredis';
import { ROLE } from '@chat/contracts';
import type { Db } from '@chat/db';
import { QueueStore } from '@chat/queues';
import { directGroupForRole, doCreateRealm, doCreateUser, initialUserSettings } from '@chat/realm';
import { basicAuth, call, form, inParallel, type Account, type Site } from './api';
import type { SenderJob } from './workers';

export interface BigRealm {
  id: number;
  site: Site;
  owner: Account;
  users: Account[];
  /** Channel ids, each with its members (the first `size * i` to `size * (i + 1)` people). */
  channels: Array<{ id: number; members: Account[] }>;
}

export async function createActiveRealm(db: Db, siteUrl: string, externalHost: string, people: number, channels: number, size: number): Promise<BigRealm> {
  const stringId = `big${randomBytes(3).toString('hex')}`;
  const realm = await doCreateRealm(db, { stringId, name: `Bench ${stringId}` });
  const owner = await doCreateUser(db, { realmId: realm.id, email: `owner@${stringId}.bench`, fullName: 'Bench Owner', role: ROLE.OWNER });
  const settings = JSON.stringify(initialUserSettings(realm.settings));
  await db.$executeRawUnsafe(
    `INSERT INTO users (realm_id, email, delivery_email, full_name, api_key, settings)
     SELECT $1, 'u' || lpad(g::text, 5, '0') || $3, 'u' || lpad(g::text, 5, '0') || $3, 'Big User ' || g, md5($4 || g), $5::jsonb
       FROM generate_series(1, $2) g`,
    realm.id, people, `@${stringId}.bench`, stringId, settings,
  );
  await db.$executeRawUnsafe(
    `INSERT INTO user_group_members (group_id, user_id)
     SELECT (SELECT id FROM user_groups WHERE realm_id = $1 AND name = $2), id FROM users WHERE realm_id = $1 AND email LIKE $3`,
    realm.id, directGroupForRole(ROLE.MEMBER), `u%@${stringId}.bench`,
  );
  const rows = await db.$queryRawUnsafe<Array<{ id: number; email: string; api_key: string }>>(
    'SELECT id, email, api_key FROM users WHERE realm_id = $1 AND email LIKE $2 ORDER BY id', realm.id, `u%@${stringId}.bench`,
  );
  const users = rows.map((r) => ({ id: r.id, email: r.email, auth: basicAuth(r.email, r.api_key) }));
  const site = { url: siteUrl, host: `${stringId}.${externalHost}` };
  const ownerAccount = { id: owner.id, email: owner.email, auth: basicAuth(owner.email, owner.apiKey) };
  const made: BigRealm['channels'] = [];
  for (let c = 0; c < channels; c++) {
    const name = `team ${c}`;
    const members = users.slice(c * size, (c + 1) * size);
    for (let i = 0; i < members.length; i += 50) {
      const a = await call(site, ownerAccount.auth, 'POST', '/users/me/subscriptions', {
        subscriptions: [{ name }], principals: members.slice(i, i + 50).map((u) => u.id),
      });
      if (a.body.result !== 'success') throw new Error(`POST /users/me/subscriptions: ${a.status} ${a.body.msg}`);
    }
    const stream = await db.stream.findFirstOrThrow({ where: { realmId: realm.id, name } });
    made.push({ id: stream.id, members });
  }
  console.log(`  realm of ${people.toLocaleString()} people, ${channels} channels of ${size}`);
  return { id: realm.id, site, owner: ownerAccount, users, channels: made };
}

/** One message queue per person, made in Redis as register makes it (its initial state left out). */
export async function queuesFor(redisUrl: string, prefix: string, realmId: number, users: Account[]): Promise<Array<{ auth: string; queueId: string; lastEventId: number }>> {
  const redis = new Redis(redisUrl);
  const store = new QueueStore(redis, prefix);
  try {
    return await inParallel(users, 50, async (u) => ({
      auth: u.auth,
      lastEventId: -1,
      queueId: await store.create({
        userId: u.id, realmId, eventTypes: ['message'], narrow: [], allPublicStreams: false,
        clientCapabilities: {}, applyMarkdown: true, clientGravatar: true, idleTimeoutSecs: 600, clientName: 'bench',
      }),
    }));
  } finally {
    redis.disconnect();
  }
}

/** Sends to each channel in turn, each by one of its members. */
export function channelJobs(channels: BigRealm['channels']): SenderJob[] {
  return channels.map((ch, i) => ({
    auth: ch.members[i % ch.members.length]!.auth,
    path: '/api/v1/messages',
    body: form({ type: 'stream', to: ch.id, topic: 'active', content: 'active message, sent=__SENT__' }),
  }));
}
