import { errors, isAdmin, ROLE, type Actor } from '@chat/contracts';
import type { Db, Tx } from '@chat/db';

type Reader = Db | Tx;

/**
 * A user the actor may administer: an administrator administers everyone in the realm, and a
 * bot's owner administers that bot.
 */
export async function accessUserForAdmin(
  db: Reader,
  actor: Actor,
  userId: number,
  opts: { allowDeactivated: boolean; allowBots: boolean },
) {
  const target = await db.user.findFirst({ where: { id: userId, realmId: actor.realmId } });
  if (!target || (target.isBot && !opts.allowBots)) throw errors.badRequest('No such user');
  if (!target.isActive && !opts.allowDeactivated) throw errors.badRequest('User is deactivated');
  if (!(isAdmin(actor) || (target.isBot && target.botOwnerId === actor.userId))) throw errors.insufficientPermission();
  return target;
}

/** A bot the actor owns or, as an administrator, may manage. */
export async function accessBot(db: Reader, actor: Actor, botId: number) {
  const bot = await db.user.findFirst({ where: { id: botId, realmId: actor.realmId } });
  if (!bot || !bot.isBot) throw errors.badRequest('No such bot');
  if (!(isAdmin(actor) || bot.botOwnerId === actor.userId)) throw errors.insufficientPermission();
  return bot;
}

/** True when `userId` is the realm's only active owner. */
export async function isLastOwner(db: Reader, realmId: number, userId: number): Promise<boolean> {
  const owners = await db.user.findMany({
    where: { realmId, role: ROLE.OWNER, isActive: true, isBot: false },
    select: { id: true },
  });
  return owners.length === 1 && owners[0]!.id === userId;
}
