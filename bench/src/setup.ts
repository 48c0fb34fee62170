/**
 * The bench's own realm: created as an administrator creates one (the actions `npm run manage`
 * runs), then its people and channels made through the API as the realm's owner would.
 */
import { randomBytes } from 'node:crypto';
import { ROLE } from '@chat/contracts';
import type { Db } from '@chat/db';
import { doCreateRealm, doCreateUser } from '@chat/realm';
import { basicAuth, call, inParallel, type Answer, type Account, type Site } from './api';

export interface Realm {
  id: number;
  stringId: string;
  owner: Account;
  users: Account[];
  /** Channel id by subscriber count. */
  channels: Map<number, number>;
}

export async function createRealm(db: Db, siteUrl: string, externalHost: string): Promise<{ realm: Omit<Realm, 'users' | 'channels'>; site: Site }> {
  const stringId = `bench${randomBytes(3).toString('hex')}`;
  const realm = await doCreateRealm(db, { stringId, name: `Bench ${stringId}` });
  const owner = await doCreateUser(db, { realmId: realm.id, email: `owner@${stringId}.bench`, fullName: 'Bench Owner', role: ROLE.OWNER });
  const site = { url: siteUrl, host: `${stringId}.${externalHost}` };
  return { realm: { id: realm.id, stringId, owner: { id: owner.id, email: owner.email, auth: basicAuth(owner.email, owner.apiKey) } }, site };
}

/**
 * `count` people made with POST /users. Their API keys are read from the database (the API
 * hands a person's key only to a password login, which would measure password hashing).
 */
export async function createUsers(db: Db, site: Site, realm: Omit<Realm, 'users' | 'channels'>, count: number): Promise<Account[]> {
  const ids = await inParallel(Array.from({ length: count }, (_, i) => i), 3, async (i) => {
    const email = `u${String(i).padStart(5, '0')}@${realm.stringId}.bench`;
    const a = await retried(() => call<{ user_id: number }>(site, realm.owner.auth, 'POST', '/users', { email, full_name: `Bench User ${i}` }), 'POST /users');
    return a.body.user_id;
  });
  const rows = await db.user.findMany({ where: { id: { in: ids } }, select: { id: true, email: true, apiKey: true } });
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.map((id) => {
    const r = byId.get(id)!;
    return { id, email: r.email, auth: basicAuth(r.email, r.apiKey) };
  });
}

/**
 * Setup requests are retried on a server error: on a machine loaded by other work a transaction
 * can time out, and it then left nothing behind.
 */
async function retried<T extends Answer<unknown>>(request: () => Promise<T>, what: string): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    const a = await request();
    if (a.body.result === 'success') return a;
    if (a.status < 500 || attempt === 4) throw new Error(`${what}: ${a.status} ${a.body.msg}`);
    await new Promise((r) => setTimeout(r, 500 * attempt));
  }
}

/** One public channel per size, subscribing the first `size` users (the owner is not one). */
export async function createChannels(db: Db, site: Site, realm: Omit<Realm, 'users' | 'channels'>, users: Account[], sizes: number[]): Promise<Map<number, number>> {
  const out = new Map<number, number>();
  for (const size of sizes) {
    const name = `fanout ${size}`;
    const members = users.slice(0, size).map((u) => u.id);
    // In slices, so that no one request carries thousands of principals.
    for (let i = 0; i < members.length; i += 10) {
      await retried(() => call(site, realm.owner.auth, 'POST', '/users/me/subscriptions', {
        subscriptions: [{ name, description: `${size} subscribers` }],
        principals: members.slice(i, i + 10),
      }), 'POST /users/me/subscriptions');
    }
    const stream = await db.stream.findFirstOrThrow({ where: { realmId: realm.id, name } });
    out.set(size, stream.id);
  }
  return out;
}
