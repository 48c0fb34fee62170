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
 * The development realm: an owner, an administrator, two members, a guest and a generic bot,
 * three public channels and one private one. Idempotent: does nothing when the realm exists.
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
  const creator = byLocal.get('desdemona')!;
  for (const c of CHANNELS) {
    const stream = await db.stream.create({
      data: {
        realmId: realm.id, name: c.name, nameKey: c.name.toLowerCase(), description: c.description,
        renderedDescription: `<p>${c.description}</p>`, inviteOnly: c.inviteOnly, creatorId: creator.id,
      },
    });
    await db.subscription.createMany({
      data: c.members.map((m, i) => ({ userId: byLocal.get(m)!.id, streamId: stream.id, color: COLORS[i % COLORS.length]! })),
    });
  }
  return [...byLocal.values()];
}

const COLORS = ['#76ce90', '#fae589', '#a6c7e5', '#e79ab5', '#bfd56f', '#f4ae55'];
