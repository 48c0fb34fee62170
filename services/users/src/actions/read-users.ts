import { errors } from '@chat/contracts';
import type { AuthedIdentity } from '@chat/kit';
import type { Tx } from '@chat/db';
import type { Services } from '../context';
import { canSeeDeliveryEmail } from '../lib/emails';
import { emailVisibilityOf, formatUser, type UserRow, type Viewer } from '../lib/format-user';
import { profileDataFor } from './profile-fields';

type Reader = Services['db'] | Tx;

export function viewerOf(identity: AuthedIdentity): Viewer {
  return { id: identity.userId, role: identity.role };
}

/** A user of the caller's realm by id, active or not; "No such user" otherwise. */
export async function accessUserById(db: Reader, realmId: number, userId: number): Promise<UserRow & { realmId: number; apiKey: string }> {
  const user = await db.user.findFirst({ where: { id: userId, realmId } });
  if (!user) throw errors.badRequest('No such user');
  return user;
}

/**
 * A user by address: their API address, or their real address when the viewer may see it
 * (so that lookups reveal nothing email_address_visibility hides).
 */
export async function accessUserByEmail(db: Reader, viewer: Viewer & { realmId: number }, email: string): Promise<UserRow & { realmId: number; apiKey: string }> {
  const wanted = email.trim();
  const candidates = await db.user.findMany({
    where: {
      realmId: viewer.realmId,
      OR: [{ email: { equals: wanted, mode: 'insensitive' } }, { deliveryEmail: { equals: wanted, mode: 'insensitive' } }],
    },
  });
  const byApiEmail = candidates.find((u) => u.email.toLowerCase() === wanted.toLowerCase());
  if (byApiEmail) return byApiEmail;
  const visible = candidates.find((u) => canSeeDeliveryEmail(viewer, { id: u.id, isBot: u.isBot, visibility: emailVisibilityOf(u) }));
  if (!visible) throw errors.badRequest('No such user');
  return visible;
}

export interface ReadOptions {
  clientGravatar: boolean;
  includeProfile: boolean;
}

export async function getUsers(
  services: Services,
  identity: AuthedIdentity,
  opts: ReadOptions & { userIds?: number[] },
): Promise<Record<string, unknown>[]> {
  const where = { realmId: identity.realmId, ...(opts.userIds ? { id: { in: opts.userIds } } : {}) };
  const users = await services.db.user.findMany({ where, orderBy: { id: 'asc' } });
  if (opts.userIds) {
    const found = new Set(users.map((u) => u.id));
    if (opts.userIds.some((id) => !found.has(id))) throw errors.badRequest('Invalid user ID');
  }
  const profile = opts.includeProfile ? await profileDataFor(services.db, identity.realmId, users.map((u) => u.id)) : undefined;
  return users.map((u) =>
    formatUser(u, viewerOf(identity), {
      realmUrl: identity.realmUrl,
      clientGravatar: opts.clientGravatar,
      profileData: profile ? (profile.get(u.id) ?? {}) : undefined,
    }),
  );
}

export async function getUser(services: Services, identity: AuthedIdentity, user: UserRow, opts: ReadOptions) {
  const profile = opts.includeProfile ? await profileDataFor(services.db, identity.realmId, [user.id]) : undefined;
  return formatUser(user, viewerOf(identity), {
    realmUrl: identity.realmUrl,
    clientGravatar: opts.clientGravatar,
    profileData: profile ? (profile.get(user.id) ?? {}) : undefined,
  });
}

/** GET /users/me: the caller's own User object (always with a real avatar URL) and max_message_id. */
export async function getOwnProfile(services: Services, identity: AuthedIdentity) {
  const me = await accessUserById(services.db, identity.realmId, identity.userId);
  const user = await getUser(services, identity, me, { clientGravatar: false, includeProfile: true });
  const max = await services.db.userMessage.aggregate({ where: { userId: me.id }, _max: { messageId: true } });
  return { ...user, max_message_id: max._max.messageId ?? -1 };
}
