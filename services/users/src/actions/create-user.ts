import { recordEvent } from '@chat/bus';
import { errors, ROLE, ROLES } from '@chat/contracts';
import type { Db, Tx } from '@chat/db';
import { directGroupForRole, doCreateUserInTx, type NewUser } from '@chat/realm';
import { activeUserIds, usersWhoCanAccess } from '../lib/audience';
import { canSeeDeliveryEmail, isValidEmail } from '../lib/emails';
import { emailVisibilityOf, formatUser } from '../lib/format-user';
import { checkFullName } from '../lib/names';

/** Checks shared by every way an account is made (POST /users, invitations, JWT, command line). */
export async function checkNewUser(
  db: Db | Tx,
  input: { realmId: number; email: string; fullName: string; role?: number },
): Promise<{ email: string; fullName: string; role: number }> {
  const email = input.email.trim();
  if (!isValidEmail(email)) throw errors.badRequest(`Invalid address.`);
  const role = input.role ?? ROLE.MEMBER;
  if (!ROLES.includes(role)) throw errors.badRequest('Invalid role');
  const fullName = checkFullName(input.fullName);
  const taken = await db.user.findFirst({
    where: {
      realmId: input.realmId,
      OR: [{ email: { equals: email, mode: 'insensitive' } }, { deliveryEmail: { equals: email, mode: 'insensitive' } }],
    },
    select: { id: true },
  });
  if (taken) throw errors.badRequest(`Email '${email}' already in use`);
  return { email, fullName, role };
}

/**
 * Creates an account in the caller's transaction and announces it with realm_user add events:
 * only to those who may access the new user (with can_access_all_users_group narrowed, guests
 * sharing nothing with a brand-new user hear nothing), and with delivery_email as each viewer
 * may see it, one event per distinct view; then its membership of its role's system group to
 * everyone, as a user_group add_members event.
 */
export async function doCreateAnnouncedUser(tx: Tx, input: NewUser, realmUrl: string) {
  const user = await doCreateUserInTx(tx, { ...input, announce: false });
  const audience = await usersWhoCanAccess(tx, user.realmId, user);
  const viewers = await tx.user.findMany({ where: { id: { in: audience } }, select: { id: true, role: true }, orderBy: { id: 'asc' } });
  const target = { id: user.id, isBot: user.isBot, visibility: emailVisibilityOf(user) };
  const seeing = viewers.filter((v) => canSeeDeliveryEmail(v, target));
  const notSeeing = viewers.filter((v) => !canSeeDeliveryEmail(v, target));
  for (const group of [seeing, notSeeing]) {
    if (!group.length) continue;
    const person = formatUser(user, group[0]!, { realmUrl, clientGravatar: false, profileData: user.isBot ? undefined : {} });
    await recordEvent(tx, { realmId: user.realmId, type: 'realm_user', users: group.map((v) => v.id), event: { type: 'realm_user', op: 'add', person } });
  }
  // The system group of the role, as for a role change.
  const roleGroup = await tx.userGroup.findFirstOrThrow({ where: { realmId: user.realmId, name: directGroupForRole(user.role) } });
  await recordEvent(tx, {
    realmId: user.realmId,
    type: 'user_group',
    users: await activeUserIds(tx, user.realmId),
    event: { type: 'user_group', op: 'add_members', group_id: roleGroup.id, user_ids: [user.id] },
  });
  return user;
}

/** Creates a checked account in one transaction, announced as doCreateAnnouncedUser does. */
export async function doCreateCheckedUser(db: Db, input: NewUser, realmUrl: string) {
  return db.$transaction(async (tx) => {
    const checked = await checkNewUser(tx, input);
    return doCreateAnnouncedUser(tx, { ...input, ...checked }, realmUrl);
  });
}
