import { recordEvent } from '@chat/bus';
import { errors, ROLE, ROLES, SYSTEM_GROUPS, checkAdmin, type Actor, checkOwner, isOwner } from '@chat/contracts';
import type { Tx } from '@chat/db';
import { directSystemGroupIds, systemGroupIds } from '@chat/realm';
import { avatarUrl, emailVisibilityOf } from '@chat/wire';
import type { Services } from '../context';
import { activeUserIds, usersWhoCanAccess } from '../lib/audience';
import { forgetCachedAuth } from '../lib/auth-cache';
import { canSeeDeliveryEmail, EMAIL_VISIBILITY, fakeEmailDomain, isValidEmail } from '../lib/emails';
import { checkFullName } from '../lib/names';
import { hashPassword, isStrongPassword } from '../lib/passwords';
import { accessBot, accessUserForAdmin, isLastOwner } from './user-access';
import { botAudience } from './api-keys';
import { announceChannelsForRole } from './channel-visibility';
import { checkNewUser, doCreateAnnouncedUser } from './create-user';
import { doUpdateProfileData, type ProfileValue } from './profile-fields';
import { announceExportConsent, exportConsent } from './exports';

type UserObjectRow = Awaited<ReturnType<Tx['user']['findFirstOrThrow']>>;

async function announcePerson(tx: Tx, target: UserObjectRow, person: Record<string, unknown>) {
  await recordEvent(tx, {
    realmId: target.realmId,
    type: 'realm_user',
    users: await usersWhoCanAccess(tx, target.realmId, target),
    event: { type: 'realm_user', op: 'update', person: { user_id: target.id, ...person } },
  });
}

async function announceBot(tx: Tx, bot: UserObjectRow, fields: Record<string, unknown>) {
  await recordEvent(tx, {
    realmId: bot.realmId,
    type: 'realm_bot',
    users: await botAudience(tx, bot.realmId, bot.botOwnerId),
    event: { type: 'realm_bot', op: 'update', bot: { user_id: bot.id, ...fields } },
  });
}

export async function doChangeFullName(tx: Tx, target: UserObjectRow, fullName: string) {
  await tx.user.update({ where: { id: target.id }, data: { fullName } });
  await announcePerson(tx, target, { full_name: fullName });
  if (target.isBot) await announceBot(tx, target, { full_name: fullName });
}

/**
 * Changes a role: the row, the system groups it moves the person between, the channels and what
 * the person may now see of others' addresses, announced to those concerned.
 */
export async function doChangeRole(tx: Tx, target: UserObjectRow, role: number) {
  const [before, after] = await Promise.all([
    directSystemGroupIds(tx, target.realmId, target),
    directSystemGroupIds(tx, target.realmId, { role, dateJoined: target.dateJoined }),
  ]);
  await tx.user.update({ where: { id: target.id }, data: { role } });
  await announcePerson(tx, target, { role });
  await announceChannelsForRole(tx, target, target.role, role);
  // System-group membership follows from the role (@chat/realm): nothing to write, only to
  // announce, the role's group first and full members last, as the family does.
  const changes = [
    ...before.filter((id) => !after.includes(id)).map((id) => ['remove_members', id] as const),
    ...after.filter((id) => !before.includes(id)).map((id) => ['add_members', id] as const),
  ];
  const fullMembers = (await systemGroupIds(tx, target.realmId)).get(SYSTEM_GROUPS.fullMembers);
  changes.sort((a, b) => Number(a[1] === fullMembers) - Number(b[1] === fullMembers));
  if (changes.length) {
    const everyone = await activeUserIds(tx, target.realmId);
    for (const [op, groupId] of changes) {
      await recordEvent(tx, {
        realmId: target.realmId,
        type: 'user_group',
        users: everyone,
        event: { type: 'user_group', op, group_id: groupId, user_ids: [target.id] },
      });
    }
  }
  // The person's new role may reveal or hide other people's real addresses.
  const others = await tx.user.findMany({ where: { realmId: target.realmId, id: { not: target.id } } });
  for (const other of others) {
    const subject = { id: other.id, isBot: other.isBot, visibility: emailVisibilityOf(other) };
    const before = canSeeDeliveryEmail({ id: target.id, role: target.role }, subject);
    const after = canSeeDeliveryEmail({ id: target.id, role }, subject);
    if (before === after) continue;
    await recordEvent(tx, {
      realmId: target.realmId,
      type: 'realm_user',
      users: [target.id],
      event: { type: 'realm_user', op: 'update', person: { user_id: other.id, delivery_email: after ? other.deliveryEmail : null } },
    });
  }
}

/**
 * Changes the real address (and the API address too where that is the real one), announced as
 * the family's server does: `delivery_email` to those who may see it, the new avatar URL where
 * the avatar is the address's Gravatar, then `new_email` where the API address changed.
 * Returns whether the API address changed (the gateways' cached authentication names it).
 */
export async function doChangeDeliveryEmail(tx: Tx, target: UserObjectRow, email: string, realmUrl: string): Promise<boolean> {
  const visibility = emailVisibilityOf(target);
  const apiEmailIsReal = target.isBot || visibility === EMAIL_VISIBILITY.EVERYONE;
  const updated = await tx.user.update({ where: { id: target.id }, data: { deliveryEmail: email, ...(apiEmailIsReal ? { email } : {}) } });
  const audience = await usersWhoCanAccess(tx, target.realmId, target);
  const viewers = await tx.user.findMany({ where: { id: { in: audience } }, select: { id: true, role: true } });
  const seeing = viewers.filter((v) => canSeeDeliveryEmail(v, { id: target.id, isBot: target.isBot, visibility })).map((v) => v.id);
  if (seeing.length) {
    await recordEvent(tx, {
      realmId: target.realmId,
      type: 'realm_user',
      users: seeing,
      event: { type: 'realm_user', op: 'update', person: { user_id: target.id, delivery_email: email } },
    });
  }
  if (updated.avatarSource !== 'U') {
    // A Gravatar is derived from the address: the old URL no longer shows this person's.
    const url = avatarUrl(updated, realmUrl);
    await announcePerson(tx, target, {
      avatar_source: updated.avatarSource,
      avatar_url: url,
      avatar_url_medium: avatarUrl(updated, realmUrl, true),
      avatar_version: updated.avatarVersion,
    });
    if (target.isBot) await announceBot(tx, target, { avatar_url: url });
  }
  if (apiEmailIsReal && target.email !== email) {
    await announcePerson(tx, target, { new_email: email });
    return true;
  }
  return false;
}

export interface UserChanges {
  fullName?: string;
  role?: number;
  profileData?: Array<{ id: number; value: ProfileValue }>;
  newEmail?: string;
}

/** PATCH /users/{id}: every change in one transaction; nothing is written if any part fails. */
export async function doUpdateUser(services: Services, actor: Actor, userId: number, changes: UserChanges): Promise<void> {
  const apiKey = await services.db.$transaction(async (tx) => {
    const target = await accessUserForAdmin(tx, actor, userId, { allowDeactivated: true, allowBots: true });
    if (changes.newEmail !== undefined) {
      const perm = await tx.userSpecialPermission.findUnique({ where: { userId: actor.userId } });
      if (!isOwner(actor) || !perm?.canChangeUserEmails) {
        throw errors.badRequest('User not authorized to change user emails');
      }
    }
    let invalidate = false;
    if (changes.role !== undefined && changes.role !== target.role) {
      if (!ROLES.includes(changes.role)) throw errors.badRequest('Invalid role');
      if (isOwner(target) || changes.role === ROLE.OWNER) checkOwner(actor);
      if (isOwner(target) && (await isLastOwner(tx, target.realmId, target.id))) {
        throw errors.badRequest('The owner permission cannot be removed from the only organization owner.');
      }
      await doChangeRole(tx, target, changes.role);
      invalidate = true;
    }
    if (changes.fullName !== undefined && changes.fullName.trim() !== '' && changes.fullName !== target.fullName) {
      await doChangeFullName(tx, target, checkFullName(changes.fullName));
    }
    if (changes.profileData !== undefined) {
      await doUpdateProfileData(tx, actor, target, changes.profileData);
    }
    if (changes.newEmail !== undefined && changes.newEmail !== target.deliveryEmail) {
      const email = changes.newEmail.trim();
      if (!isValidEmail(email)) throw errors.badRequest('Invalid address.');
      const taken = await tx.user.findFirst({
        where: { realmId: target.realmId, id: { not: target.id }, OR: [{ email: { equals: email, mode: 'insensitive' } }, { deliveryEmail: { equals: email, mode: 'insensitive' } }] },
      });
      if (taken) throw errors.badRequest(`Email '${email}' already in use`);
      await doChangeDeliveryEmail(tx, target, email, actor.realmUrl);
      invalidate = true;
    }
    return invalidate ? target.apiKey : null;
  });
  if (apiKey) await forgetCachedAuth(services, apiKey);
}

/**
 * Deactivates a user with their bots, and disables the invitation links they made; their API
 * keys stop working at once.
 */
export async function doDeactivateUserInTx(tx: Tx, target: UserObjectRow): Promise<string[]> {
  const keys = [target.apiKey];
  const audience = await usersWhoCanAccess(tx, target.realmId, target);
  await tx.user.update({ where: { id: target.id }, data: { isActive: false } });
  await recordEvent(tx, {
    realmId: target.realmId,
    type: 'realm_user',
    users: audience,
    event: { type: 'realm_user', op: 'update', person: { user_id: target.id, is_active: false } },
  });
  if (target.isBot) {
    await announceBot(tx, target, { is_active: false });
    return keys;
  }
  await tx.invite.updateMany({ where: { realmId: target.realmId, referredById: target.id }, data: { revoked: true } });
  const bots = await tx.user.findMany({ where: { realmId: target.realmId, botOwnerId: target.id, isActive: true, isBot: true } });
  for (const bot of bots) keys.push(...(await doDeactivateUserInTx(tx, bot)));
  return keys;
}

export async function doDeactivateUser(services: Services, actor: Actor, userId: number, opts: { bot: boolean }): Promise<void> {
  const keys = await services.db.$transaction(async (tx) => {
    const target = opts.bot
      ? await accessBot(tx, actor, userId)
      : await accessUserForAdmin(tx, actor, userId, { allowDeactivated: false, allowBots: false });
    if (!target.isActive) throw errors.badRequest('User is deactivated');
    if (isOwner(target)) checkOwner(actor);
    if (isOwner(target) && (await isLastOwner(tx, target.realmId, target.id))) {
      throw errors.badRequest('Cannot deactivate the only organization owner');
    }
    return doDeactivateUserInTx(tx, target);
  });
  await forgetCachedAuth(services, ...keys);
}

export async function doDeactivateSelf(services: Services, actor: Actor): Promise<void> {
  const keys = await services.db.$transaction(async (tx) => {
    const me = await tx.user.findUniqueOrThrow({ where: { id: actor.userId } });
    if (isOwner(me) && (await isLastOwner(tx, me.realmId, me.id))) {
      throw errors.badRequest('Cannot deactivate the only organization owner');
    }
    return doDeactivateUserInTx(tx, me);
  });
  await forgetCachedAuth(services, ...keys);
}

export async function doReactivateUser(services: Services, actor: Actor, userId: number): Promise<void> {
  await services.db.$transaction(async (tx) => {
    const target = await accessUserForAdmin(tx, actor, userId, { allowDeactivated: true, allowBots: true });
    if (target.isActive) throw errors.badRequest('User is already active');
    if (target.isBot && target.botOwnerId !== null) {
      const owner = await tx.user.findUnique({ where: { id: target.botOwnerId } });
      if (owner && !owner.isActive) throw errors.badRequest('Cannot reactivate a bot whose owner is deactivated.');
    }
    await tx.user.update({ where: { id: target.id }, data: { isActive: true } });
    await announcePerson(tx, { ...target, isActive: true }, { is_active: true });
    if (target.isBot) await announceBot(tx, target, { is_active: true });
    else await announceExportConsent(tx, target.realmId, target.id, exportConsent(target.settings));
  });
}

/** POST /users: an administrator creates an account directly. */
export async function doCreateUserByAdmin(
  services: Services,
  actor: Actor,
  input: { email: string; fullName: string; password?: string },
): Promise<number> {
  checkAdmin(actor);
  const request = { realmId: actor.realmId, email: input.email, fullName: input.fullName };
  // The password is checked after the address, as the family's server does, and hashed outside
  // the transaction: a deliberately slow hash must not hold a connection and row locks.
  let passwordHash: string | null = null;
  if (input.password !== undefined) {
    await checkNewUser(services.db, request);
    if (!isStrongPassword(input.password)) throw errors.badRequest('The password is too weak.');
    passwordHash = await hashPassword(input.password);
  }
  return services.db.$transaction(async (tx) => {
    const checked = await checkNewUser(tx, request);
    const user = await doCreateAnnouncedUser(tx, {
      realmId: actor.realmId,
      email: checked.email,
      fullName: checked.fullName,
      role: ROLE.MEMBER,
      fakeEmailDomain: fakeEmailDomain(actor.realmUrl),
    }, actor.realmUrl);
    if (passwordHash) await tx.user.update({ where: { id: user.id }, data: { passwordHash } });
    return user.id;
  });
}
