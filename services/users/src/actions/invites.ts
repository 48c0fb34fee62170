import { randomBytes } from 'node:crypto';
import { recordEvent } from '@chat/bus';
import { errors, LIMITS, ROLE, ROLES } from '@chat/contracts';
import type { Tx } from '@chat/db';
import type { Services } from '../context';
import { adminIds } from '../lib/audience';
import { groupPredicate, hasRealmPermission } from '../lib/groups';
import { isAdmin, type Actor } from './actor';

/** Lower-case letters and digits: the shape of the confirmation keys in invitation links. */
export function generateInviteKey(): string {
  const alphabet = 'abcdefghijklmnopqrstuvwxyz0123456789';
  return [...randomBytes(24)].map((b) => alphabet[b % alphabet.length]).join('');
}

export function inviteLink(realmUrl: string, key: string): string {
  return `${realmUrl}/join/${key}/`;
}

/** People and bots may invite; guests and bots may not (the API family's "member or admin"). */
function checkMemberOrAdmin(actor: Actor) {
  if (actor.role === ROLE.GUEST) throw errors.badRequest('Not allowed for guest users');
  if (actor.isBot) throw errors.badRequest('This endpoint does not accept bot requests.');
}

/** Administrators, and the referrer of the changed invitation, refresh their invitation lists. */
async function announceInvitesChanged(tx: Tx, realmId: number, referrerId: number) {
  const users = new Set(await adminIds(tx, realmId));
  users.add(referrerId);
  await recordEvent(tx, { realmId, type: 'invites_changed', users: [...users].sort((a, b) => a - b), event: { type: 'invites_changed' } });
}

/** Channels the caller can see: public ones (not for guests), and private ones they are in. */
async function accessStream(tx: Tx, actor: Actor, streamId: number) {
  const stream = await tx.stream.findFirst({ where: { id: streamId, realmId: actor.realmId, isArchived: false } });
  if (!stream) return null;
  if (!stream.inviteOnly && actor.role !== ROLE.GUEST) return stream;
  const sub = await tx.subscription.findFirst({ where: { streamId, userId: actor.id, active: true } });
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

export async function doCreateMultiuseInvite(services: Services, actor: Actor, input: InviteInput): Promise<string> {
  checkMemberOrAdmin(actor);
  return services.db.$transaction(async (tx) => {
    const me = await tx.user.findUniqueOrThrow({ where: { id: actor.id } });
    if (!(await hasRealmPermission(tx, actor.realmId, 'create_multiuse_invite_group', me))) throw errors.insufficientPermission();
    const inviteAs = input.inviteAs ?? ROLE.MEMBER;
    if (!ROLES.includes(inviteAs)) throw errors.badRequest('Invalid invite_as');
    // Nobody hands out a role above their own.
    if (inviteAs < actor.role) throw errors.insufficientPermission();
    const minutes = input.expiresInMinutes === undefined ? LIMITS.defaultInviteExpiryMinutes : input.expiresInMinutes;
    if (minutes !== null && minutes <= 0) throw errors.badRequest('Invalid invite_expires_in_minutes');
    let welcome = input.welcomeMessageCustomText ?? null;
    if (welcome !== null && [...welcome].length > LIMITS.welcomeMessageCustomTextLength) {
      throw errors.badRequest(`welcome_message_custom_text is too long (limit: ${LIMITS.welcomeMessageCustomTextLength} characters)`);
    }
    if (!isAdmin(actor)) welcome = null;

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
      const member = await tx.userGroupMember.findUnique({ where: { groupId_userId: { groupId: id, userId: actor.id } } });
      if (!manager && !member) throw errors.insufficientPermission();
    }

    const key = generateInviteKey();
    await tx.multiuseInvite.create({
      data: {
        realmId: actor.realmId,
        key,
        referredById: actor.id,
        inviteAs,
        streamIds: streams.map((s) => s.id),
        groupIds: [...new Set(input.groupIds)],
        includeRealmDefaultSubscriptions: input.includeRealmDefaultSubscriptions,
        welcomeMessageCustomText: welcome,
        expiresAt: minutes === null ? null : new Date(Date.now() + minutes * 60_000),
      },
    });
    await announceInvitesChanged(tx, actor.realmId, actor.id);
    return inviteLink(actor.realmUrl, key);
  });
}

/** GET /invites: administrators see every open invitation, others their own. */
export async function listInvites(services: Services, actor: Actor) {
  checkMemberOrAdmin(actor);
  const invites = await services.db.multiuseInvite.findMany({
    where: {
      realmId: actor.realmId,
      revoked: false,
      OR: [{ expiresAt: null }, { expiresAt: { gt: new Date() } }],
      ...(isAdmin(actor) ? {} : { referredById: actor.id }),
    },
    orderBy: { id: 'asc' },
  });
  return invites.map((i) => ({
    id: i.id,
    invited_by_user_id: i.referredById,
    invited: Math.floor(i.dateCreated.getTime() / 1000),
    expiry_date: i.expiresAt ? Math.floor(i.expiresAt.getTime() / 1000) : null,
    invited_as: i.inviteAs,
    is_multiuse: true,
    link_url: inviteLink(actor.realmUrl, i.key),
    notify_referrer_on_join: false,
  }));
}

export async function doRevokeMultiuseInvite(services: Services, actor: Actor, inviteId: number): Promise<void> {
  checkMemberOrAdmin(actor);
  await services.db.$transaction(async (tx) => {
    const invite = await tx.multiuseInvite.findFirst({ where: { id: inviteId, realmId: actor.realmId } });
    if (!invite) throw errors.badRequest('No such invitation');
    if (invite.revoked) throw errors.badRequest('Invitation has already been revoked');
    if (!isAdmin(actor) && invite.referredById !== actor.id) throw errors.mustBeAdmin();
    await tx.multiuseInvite.update({ where: { id: invite.id }, data: { revoked: true } });
    await announceInvitesChanged(tx, actor.realmId, invite.referredById);
  });
}
