import { randomBytes } from 'node:crypto';
import { recordEvent } from '@chat/bus';
import { errors, LIMITS, ROLE, ROLES, isAdmin, type Actor, isGuest, checkOwner } from '@chat/contracts';
import type { Invite, Tx, User } from '@chat/db';
import type { Services } from '../context';
import { adminIds } from '../lib/audience';
import { groupPredicate, hasRealmPermission } from '@chat/realm';

/**
 * What both kinds of invitation share: reusable links (POST /invites/multiuse) and email
 * invitations (POST /invites, actions/email-invites.ts) are rows of one table, told apart by
 * `email`, checked by the same rules and listed together.
 */

/** Lower-case letters and digits: the shape of the confirmation keys in invitation links. */
export function generateInviteKey(): string {
  const alphabet = 'abcdefghijklmnopqrstuvwxyz0123456789';
  return [...randomBytes(24)].map((b) => alphabet[b % alphabet.length]).join('');
}

export function inviteLink(realmUrl: string, key: string): string {
  return `${realmUrl}/join/${key}/`;
}

/** People may invite; guests and bots may not (the API family's "member or admin"). */
export function checkMemberOrAdmin(actor: Actor) {
  if (isGuest(actor)) throw errors.badRequest('Not allowed for guest users');
  if (actor.isBot) throw errors.botsNotAllowed();
}

/** Administrators, and the referrers of the changed invitations, refresh their invitation lists. */
export async function announceInvitesChanged(tx: Tx, realmId: number, referrerIds: number[]) {
  const users = new Set(await adminIds(tx, realmId));
  for (const id of referrerIds) users.add(id);
  await recordEvent(tx, { realmId, type: 'invites_changed', users: [...users].sort((a, b) => a - b), event: { type: 'invites_changed' } });
}

/** Channels the caller can see: public ones (not for guests), and private ones they are in. */
async function accessStream(tx: Tx, actor: Actor, streamId: number) {
  const stream = await tx.stream.findFirst({ where: { id: streamId, realmId: actor.realmId, isArchived: false } });
  if (!stream) return null;
  if (!stream.inviteOnly && !isGuest(actor)) return stream;
  const sub = await tx.subscription.findFirst({ where: { streamId, userId: actor.userId, active: true } });
  return sub ? stream : null;
}

export function defaultStreamIds(realmSettings: unknown): number[] {
  const ids = (realmSettings as Record<string, unknown> | null)?.default_stream_ids;
  return Array.isArray(ids) ? ids.filter((x): x is number => Number.isSafeInteger(x)) : [];
}

export interface InviteInput {
  expiresInMinutes: number | null | undefined;
  inviteAs?: number;
  streamIds: number[];
  groupIds: number[];
  includeRealmDefaultSubscriptions: boolean;
  welcomeMessageCustomText?: string | null;
}

/** An invitation's terms, checked: what a row of either kind stores. */
export interface CheckedInvite {
  inviteAs: number;
  streamIds: number[];
  groupIds: number[];
  includeRealmDefaultSubscriptions: boolean;
  welcomeMessageCustomText: string | null;
  expiresAt: Date | null;
}

/**
 * Nobody hands out a role above their own: the owner role takes an owner, any other role above
 * the caller's an administrator.
 */
function checkInviteAs(actor: Actor, inviteAs: number) {
  if (!ROLES.includes(inviteAs)) throw errors.badRequest('Invalid invite_as');
  if (inviteAs === ROLE.OWNER) checkOwner(actor);
  if (inviteAs < actor.role) throw errors.mustBeAdmin();
}

export function checkWelcomeTextLength(text: string | null | undefined) {
  if (text != null && [...text].length > LIMITS.welcomeMessageCustomTextLength) {
    throw errors.badRequest(`welcome_message_custom_text is too long (limit: ${LIMITS.welcomeMessageCustomTextLength} characters)`);
  }
}

/** The caller's own row, and whether their realm lets them invite the way `setting` names. */
export async function checkMayInvite(tx: Tx, actor: Actor, setting: 'can_invite_users_group' | 'create_multiuse_invite_group'): Promise<User> {
  checkMemberOrAdmin(actor);
  const me = await tx.user.findUniqueOrThrow({ where: { id: actor.userId } });
  if (!(await hasRealmPermission(tx, actor.realmId, setting, me))) throw errors.insufficientPermission();
  return me;
}

/**
 * Checks an invitation's terms in the order the API family reports problems: role, then
 * channels (each must be visible, and a default channel or one the caller may add others to),
 * then groups (the caller must manage them or belong to them), then the welcome text, which is
 * an administrator's to set. `beforeChannels` runs between the role and channel checks.
 */
export async function checkInviteTerms(tx: Tx, actor: Actor, me: User, input: InviteInput, beforeChannels?: () => void): Promise<CheckedInvite> {
  const inviteAs = input.inviteAs ?? ROLE.MEMBER;
  checkInviteAs(actor, inviteAs);
  const minutes = input.expiresInMinutes === undefined ? LIMITS.defaultInviteExpiryMinutes : input.expiresInMinutes;
  if (minutes !== null && minutes <= 0) throw errors.badRequest('Invalid invite_expires_in_minutes');
  beforeChannels?.();

  const realm = await tx.realm.findUniqueOrThrow({ where: { id: actor.realmId } });
  const defaults = new Set(defaultStreamIds(realm.settings));
  const streams = [];
  for (const id of input.streamIds) {
    const stream = await accessStream(tx, actor, id);
    if (!stream) throw errors.badRequest(`Invalid channel ID ${id}. No invites were sent.`);
    streams.push(stream);
  }
  if (streams.length) {
    const canSubscribeOthers = await hasRealmPermission(tx, actor.realmId, 'can_add_subscribers_group', me);
    for (const stream of streams) {
      if (canSubscribeOthers || defaults.has(stream.id)) continue;
      const perStream = stream.canAddSubscribersGroup as number | { direct_members: number[]; direct_subgroups: number[] } | null;
      if (perStream !== null && (await groupPredicate(tx, actor.realmId, perStream))(me)) continue;
      throw errors.badRequest('You do not have permission to subscribe other users to channels.');
    }
  }
  for (const id of input.groupIds) {
    const group = await tx.userGroup.findFirst({ where: { id, realmId: actor.realmId } });
    if (!group || group.isSystemGroup) throw errors.badRequest(`Invalid user group ID: ${id}`);
    if (group.deactivated) throw errors.badRequest('User group is deactivated.');
    const manager = isAdmin(actor) || (await hasRealmPermission(tx, actor.realmId, 'can_manage_all_groups', me));
    const member = await tx.userGroupMember.findUnique({ where: { groupId_userId: { groupId: id, userId: actor.userId } } });
    if (!manager && !member) throw errors.insufficientPermission();
  }
  const welcome = input.welcomeMessageCustomText ?? null;
  if (welcome !== null && !isAdmin(actor)) throw errors.mustBeAdmin();

  return {
    inviteAs,
    streamIds: [...new Set(streams.map((s) => s.id))],
    groupIds: [...new Set(input.groupIds)],
    includeRealmDefaultSubscriptions: input.includeRealmDefaultSubscriptions,
    welcomeMessageCustomText: welcome,
    expiresAt: minutes === null ? null : new Date(Date.now() + minutes * 60_000),
  };
}

export async function doCreateMultiuseInvite(services: Services, actor: Actor, input: InviteInput): Promise<string> {
  checkWelcomeTextLength(input.welcomeMessageCustomText);
  return services.db.$transaction(async (tx) => {
    const me = await checkMayInvite(tx, actor, 'create_multiuse_invite_group');
    const terms = await checkInviteTerms(tx, actor, me, input);
    const key = generateInviteKey();
    await tx.invite.create({ data: { realmId: actor.realmId, key, referredById: actor.userId, ...terms } });
    await announceInvitesChanged(tx, actor.realmId, [actor.userId]);
    return inviteLink(actor.realmUrl, key);
  });
}

/** Still open: not revoked, not used, not expired. */
export function pendingInviteWhere(now = new Date()) {
  return { revoked: false, createdUserId: null, OR: [{ expiresAt: null }, { expiresAt: { gt: now } }] };
}

const seconds = (d: Date) => Math.floor(d.getTime() / 1000);

/** GET /invites: administrators see every open invitation, others their own; email ones first. */
export async function listInvites(services: Services, actor: Actor) {
  checkMemberOrAdmin(actor);
  const invites = await services.db.invite.findMany({
    where: { realmId: actor.realmId, ...pendingInviteWhere(), ...(isAdmin(actor) ? {} : { referredById: actor.userId }) },
    orderBy: { id: 'asc' },
  });
  const common = (i: Invite) => ({
    id: i.id,
    invited_by_user_id: i.referredById,
    invited: seconds(i.dateCreated),
    expiry_date: i.expiresAt ? seconds(i.expiresAt) : null,
    invited_as: i.inviteAs,
  });
  return [
    ...invites
      .filter((i) => i.email !== null)
      .map((i) => ({ ...common(i), email: i.email, is_multiuse: false, notify_referrer_on_join: i.notifyReferrerOnJoin })),
    ...invites.filter((i) => i.email === null).map((i) => ({ ...common(i), is_multiuse: true, link_url: inviteLink(actor.realmUrl, i.key) })),
  ];
}

/**
 * An invitation the caller may revoke or resend: their own, or, for an administrator, anyone's
 * (an owner's for an invitation to the owner role). `multiuse` picks the kind the path names.
 */
export async function accessInviteForControl(tx: Tx, actor: Actor, inviteId: number, multiuse: boolean) {
  checkMemberOrAdmin(actor);
  const invite = await tx.invite.findFirst({ where: { id: inviteId, realmId: actor.realmId, email: multiuse ? null : { not: null } } });
  if (!invite) throw errors.badRequest('No such invitation');
  if (invite.referredById !== actor.userId) {
    if (invite.inviteAs === ROLE.OWNER) checkOwner(actor);
    if (!isAdmin(actor)) throw errors.mustBeAdmin();
  }
  return invite;
}

/** DELETE /invites/{id} and /invites/multiuse/{id}. */
export async function doRevokeInvite(services: Services, actor: Actor, inviteId: number, multiuse: boolean): Promise<void> {
  await services.db.$transaction(async (tx) => {
    const invite = await accessInviteForControl(tx, actor, inviteId, multiuse);
    if (invite.revoked) throw errors.badRequest('Invitation has already been revoked');
    // A used email invitation is not an invitation any more.
    if (invite.createdUserId !== null) throw errors.badRequest('No such invitation');
    await tx.invite.update({ where: { id: invite.id }, data: { revoked: true } });
    await announceInvitesChanged(tx, actor.realmId, [invite.referredById]);
  });
}
