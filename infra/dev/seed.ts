import type { Db } from '@chat/db';
import { BOT_TYPE, ROLE } from '@chat/contracts';
import { doCreateRealm, doCreateUser } from '@chat/realm';

export interface SeededUser {
  id: number;
  email: string;
  apiKey: string;
  fullName: string;
  role: number;
}

const PEOPLE = [
  { local: 'desdemona', fullName: 'Desdemona', role: ROLE.OWNER },
  { local: 'iago', fullName: 'Iago', role: ROLE.ADMINISTRATOR },
  { local: 'hamlet', fullName: 'King Hamlet', role: ROLE.MEMBER },
  { local: 'othello', fullName: 'Othello, the Moor of Venice', role: ROLE.MEMBER },
  { local: 'polonius', fullName: 'Polonius', role: ROLE.GUEST },
];

const CHANNELS = [
  { name: 'general', description: 'Everyone is here.', inviteOnly: false, members: ['desdemona', 'iago', 'hamlet', 'othello', 'polonius', 'bot'] },
  { name: 'engineering', description: 'How we build things.', inviteOnly: false, members: ['desdemona', 'iago', 'hamlet', 'othello'] },
  { name: 'random', description: 'Anything goes.', inviteOnly: false, members: ['desdemona', 'hamlet', 'othello'] },
  { name: 'leadership', description: 'Owners and administrators.', inviteOnly: true, members: ['desdemona', 'iago'] },
];

/**
 * The development realm's people: an owner, an administrator, two members, a guest and a
 * generic bot. Idempotent: does nothing when the realm exists. Channels are created afterwards
 * through the running cluster (seedChannels), so they go through the messaging service's own
 * actions and events.
 */
export async function seedDevelopmentRealm(db: Db, domain: string): Promise<SeededUser[] | null> {
  if (await db.realm.findUnique({ where: { stringId: '' } })) return null;
  const realm = await doCreateRealm(db, { stringId: '', name: 'Development Organization', description: 'A realm to try the server with.' });
  const byLocal = new Map<string, SeededUser>();
  for (const p of PEOPLE) {
    const u = await doCreateUser(db, { realmId: realm.id, email: `${p.local}@${domain}`, fullName: p.fullName, role: p.role });
    byLocal.set(p.local, { id: u.id, email: u.email, apiKey: u.apiKey, fullName: u.fullName, role: u.role });
  }
  const owner = byLocal.get('hamlet')!;
  const bot = await doCreateUser(db, {
    realmId: realm.id, email: `bot@${domain}`, fullName: 'Development Bot', role: ROLE.MEMBER,
    isBot: true, botType: BOT_TYPE.GENERIC, botOwnerId: owner.id,
  });
  byLocal.set('bot', { id: bot.id, email: bot.email, apiKey: bot.apiKey, fullName: bot.fullName, role: bot.role });
  return [...byLocal.values()];
}

/** Creates the channels as the owner through the gateway, subscribing their members. */
export async function seedChannels(site: string, users: SeededUser[]): Promise<void> {
  const byLocal = new Map(users.map((u) => [u.email.split('@')[0]!, u]));
  const owner = byLocal.get('desdemona')!;
  const auth = `Basic ${Buffer.from(`${owner.email}:${owner.apiKey}`).toString('base64')}`;
  for (const c of CHANNELS) {
    const body = new URLSearchParams({
      subscriptions: JSON.stringify([{ name: c.name, description: c.description }]),
      principals: JSON.stringify(c.members.map((m) => byLocal.get(m)!.id)),
      invite_only: String(c.inviteOnly),
    });
    const res = await fetch(`${site}/api/v1/users/me/subscriptions`, { method: 'POST', headers: { authorization: auth }, body });
    const answer = (await res.json()) as { result: string; msg: string };
    if (answer.result !== 'success') throw new Error(`seeding channel ${c.name} failed: ${answer.msg}`);
  }
}
