import { errors, type Actor } from '@chat/contracts';
import type { Tx } from '@chat/db';
import { accessibleUserIds, canAccessUser, inaccessibleUserObject } from '@chat/realm';
import type { Services } from '../context';
import { canSeeDeliveryEmail, fakeEmailDomain } from '../lib/emails';
import { emailVisibilityOf, userObject, type UserObjectRow, type Viewer } from '@chat/wire';
import { profileDataFor } from './profile-fields';

type Reader = Services['db'] | Tx;

/** The caller as the realm's visibility rules name a viewer (by user id). */
export function viewerOf(caller: Pick<Actor, 'userId' | 'role'>): Viewer {
  return { id: caller.userId, role: caller.role };
}

/** A user of the caller's realm by id, active or not; "No such user" otherwise. */
export async function accessUserById(db: Reader, realmId: number, userId: number): Promise<UserObjectRow & { realmId: number; apiKey: string }> {
  const user = await db.user.findFirst({ where: { id: userId, realmId } });
  if (!user) throw errors.badRequest('No such user');
  return user;
}

/**
 * A user by address: their API address, or their real address when the viewer may see it
 * (so that lookups reveal nothing email_address_visibility hides).
 */
export async function accessUserByEmail(db: Reader, actor: Pick<Actor, 'realmId' | 'userId' | 'role'>, email: string): Promise<UserObjectRow & { realmId: number; apiKey: string }> {
  const wanted = email.trim();
  const candidates = await db.user.findMany({
    where: {
      realmId: actor.realmId,
      OR: [{ email: { equals: wanted, mode: 'insensitive' } }, { deliveryEmail: { equals: wanted, mode: 'insensitive' } }],
    },
  });
  const byApiEmail = candidates.find((u) => u.email.toLowerCase() === wanted.toLowerCase());
  if (byApiEmail) return byApiEmail;
  const visible = candidates.find((u) => canSeeDeliveryEmail(viewerOf(actor), { id: u.id, isBot: u.isBot, visibility: emailVisibilityOf(u) }));
  if (!visible) throw errors.badRequest('No such user');
  return visible;
}

export interface ReadOptions {
  clientGravatar: boolean;
  includeProfile: boolean;
}

/**
 * GET /users: every user (or those of `userIds`), as the viewer may see them. A guest outside
 * can_access_all_users_group gets, for each person they may not access, a placeholder that
 * gives away only the id (inaccessibleUserObject).
 */
export async function getUsers(
  services: Services,
  actor: Actor,
  opts: ReadOptions & { userIds?: number[] },
): Promise<Record<string, unknown>[]> {
  const where = { realmId: actor.realmId, ...(opts.userIds ? { id: { in: opts.userIds } } : {}) };
  const [users, allowed] = await Promise.all([
    services.db.user.findMany({ where, orderBy: { id: 'asc' } }),
    accessibleUserIds(services.db, actor.realmId, viewerOf(actor)),
  ]);
  if (opts.userIds) {
    const found = new Set(users.map((u) => u.id));
    if (opts.userIds.some((id) => !found.has(id))) throw errors.badRequest('Invalid user ID');
  }
  const visible = allowed === null ? users : users.filter((u) => u.isBot || allowed.has(u.id));
  const profile = opts.includeProfile ? await profileDataFor(services.db, actor.realmId, visible.map((u) => u.id)) : undefined;
  const hiddenDomain = fakeEmailDomain(actor.realmUrl);
  return users.map((u) => {
    if (allowed !== null && !u.isBot && !allowed.has(u.id)) return inaccessibleUserObject(u.id, hiddenDomain);
    return userObject(u, viewerOf(actor), {
      realmUrl: actor.realmUrl,
      clientGravatar: opts.clientGravatar,
      profileData: profile ? (profile.get(u.id) ?? {}) : undefined,
    });
  });
}

/**
 * GET /users/{user_id} and /users/{email}: one User object. A person the viewer may not access
 * (a restricted guest asking about someone they share nothing with) is `Insufficient permission`,
 * as for every read of one named user.
 */
export async function getUser(services: Services, actor: Actor, user: UserObjectRow, opts: ReadOptions) {
  await checkCanAccessUser(services.db, actor.realmId, viewerOf(actor), user);
  const profile = opts.includeProfile ? await profileDataFor(services.db, actor.realmId, [user.id]) : undefined;
  return userObject(user, viewerOf(actor), {
    realmUrl: actor.realmUrl,
    clientGravatar: opts.clientGravatar,
    profileData: profile ? (profile.get(user.id) ?? {}) : undefined,
  });
}

/** Reads that name one user answer `Insufficient permission` when the viewer may not access them. */
export async function checkCanAccessUser(
  db: Reader,
  realmId: number,
  viewer: { id: number; role: number },
  target: { id: number; isBot: boolean },
): Promise<void> {
  if (!(await canAccessUser(db, realmId, viewer, target))) throw errors.insufficientPermission();
}

/** GET /users/me: the caller's own User object (always with a real avatar URL) and max_message_id. */
export async function getOwnProfile(services: Services, actor: Actor) {
  const me = await accessUserById(services.db, actor.realmId, actor.userId);
  const user = await getUser(services, actor, me, { clientGravatar: false, includeProfile: true });
  const max = await services.db.userMessage.aggregate({ where: { userId: me.id }, _max: { messageId: true } });
  return { ...user, max_message_id: max._max.messageId ?? -1 };
}
