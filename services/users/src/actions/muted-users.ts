import { recordEvent } from '@chat/bus';
import { errors, flagBit, type Actor } from '@chat/contracts';
import type { Tx } from '@chat/db';
import { canAccessUser } from '@chat/realm';
import { mutedUsersList } from '@chat/wire';
import type { Services } from '../context';
import { viewerOf } from './read-users';

const READ = flagBit('read');

/**
 * The user to mute or unmute: anyone of the realm, bots and deactivated users included, whom the
 * caller may know about (a restricted guest may not mute someone hidden from them).
 */
async function accessUserToMute(tx: Tx, actor: Actor, userId: number) {
  const target = await tx.user.findFirst({ where: { id: userId, realmId: actor.realmId }, select: { id: true, isBot: true } });
  if (!target) throw errors.badRequest('No such user');
  if (!(await canAccessUser(tx, actor.realmId, viewerOf(actor), target))) throw errors.insufficientPermission();
  return target;
}

/** The caller's whole list after a change, to the caller only. */
async function announceMutes(tx: Tx, actor: Actor) {
  await recordEvent(tx, {
    realmId: actor.realmId,
    type: 'muted_users',
    users: [actor.userId],
    event: { type: 'muted_users', muted_users: await mutedUsersList(tx, actor.userId) },
  });
}

/**
 * Muting marks what the muted user already sent the caller as read, so muting clears their
 * unread counts at once; later messages arrive read (the messaging service's send path).
 */
async function doMarkMutedSenderRead(tx: Tx, actor: Actor, senderId: number) {
  const rows = await tx.$queryRawUnsafe<Array<{ message_id: number }>>(
    `UPDATE user_messages um SET flags = um.flags | ${READ}
       FROM messages m
      WHERE um.user_id = $1 AND (um.flags & ${READ}) = 0 AND m.id = um.message_id AND m.sender_id = $2
      RETURNING um.message_id`,
    actor.userId,
    senderId,
  );
  if (!rows.length) return;
  const messages = rows.map((r) => r.message_id).sort((a, b) => a - b);
  await recordEvent(tx, {
    realmId: actor.realmId,
    type: 'update_message_flags',
    users: [actor.userId],
    event: { type: 'update_message_flags', op: 'add', operation: 'add', flag: 'read', messages, all: false },
  });
}

/** POST /users/me/muted_users/{id}. */
export async function doMuteUser(services: Services, actor: Actor, mutedUserId: number): Promise<void> {
  if (mutedUserId === actor.userId) throw errors.badRequest('Cannot mute self');
  await services.db.$transaction(async (tx) => {
    await accessUserToMute(tx, actor, mutedUserId);
    // ON CONFLICT rather than a look-up first: of two mutes racing, the second is told so.
    const inserted = await tx.$executeRawUnsafe(
      `INSERT INTO muted_users (realm_id, user_id, muted_user_id) VALUES ($1, $2, $3) ON CONFLICT (user_id, muted_user_id) DO NOTHING`,
      actor.realmId,
      actor.userId,
      mutedUserId,
    );
    if (inserted === 0) throw errors.badRequest('User already muted');
    await doMarkMutedSenderRead(tx, actor, mutedUserId);
    await announceMutes(tx, actor);
  });
}

/** DELETE /users/me/muted_users/{id}. Messages marked read while muted stay read. */
export async function doUnmuteUser(services: Services, actor: Actor, mutedUserId: number): Promise<void> {
  await services.db.$transaction(async (tx) => {
    await accessUserToMute(tx, actor, mutedUserId);
    const removed = await tx.mutedUser.deleteMany({ where: { userId: actor.userId, mutedUserId } });
    if (removed.count === 0) throw errors.badRequest('User is not muted');
    await announceMutes(tx, actor);
  });
}
