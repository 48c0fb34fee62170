import { recordEvent } from '@chat/bus';
import { errors, ROLE } from '@chat/contracts';
import type { Tx } from '@chat/db';
import type { Services } from '../context';
import { activeUserIds } from '../lib/audience';
import { fakeEmailDomain } from '../lib/emails';
import { SIGNUP_TEXTS } from '../lib/email-policy';
import { checkNewUser, doCreateAnnouncedUser } from './create-user';
import { announceInvitesChanged, defaultStreamIds, pendingInviteWhere } from './invites';

const STREAM_COLORS = ['#76ce90', '#fae589', '#a6c7e5', '#b0a5fd', '#f5ce6e', '#e4523d', '#c2726a', '#94c849'];

const LINK_GONE = 'Whoops. The confirmation link has expired or been deactivated.';

/** An invitation that still works: of this realm, not revoked, not expired, not used up. */
export async function accessUsableInvite(db: Services['db'] | Tx, realmId: number, key: string) {
  const invite = await db.invite.findFirst({ where: { key, realmId, ...pendingInviteWhere() } });
  if (!invite) throw errors.resourceNotFound(LINK_GONE);
  return invite;
}

/**
 * The account's address: an email invitation was sent to one address, which a sign-up through it
 * must use (and may leave out); a reusable link takes whatever address is given.
 */
function signUpEmail(invite: { email: string | null }, given: string | undefined): string {
  if (invite.email === null) {
    if (given === undefined) throw errors.missingArgument('email');
    return given;
  }
  if (given !== undefined && given.trim().toLowerCase() !== invite.email.toLowerCase()) {
    throw errors.badRequest('This invitation was sent to a different email address.');
  }
  return invite.email;
}

/**
 * Closes the invitations an account now answers: the email invitation it was made with is used,
 * and every other open email invitation to its address is revoked; their referrers and the
 * administrators hear that the invitation list changed.
 */
async function doRetireInvites(tx: Tx, invite: { id: number; email: string | null; referredById: number }, user: { id: number; realmId: number; deliveryEmail: string }) {
  const referrers = new Set<number>();
  if (invite.email !== null) {
    // Conditional, so of two sign-ups racing through one invitation the second finds it used
    // (the row lock makes it wait for the first) and rolls back.
    const used = await tx.invite.updateMany({ where: { id: invite.id, ...pendingInviteWhere() }, data: { createdUserId: user.id } });
    if (used.count !== 1) throw errors.resourceNotFound(LINK_GONE);
    referrers.add(invite.referredById);
  }
  const others = await tx.invite.findMany({
    where: { realmId: user.realmId, email: { equals: user.deliveryEmail, mode: 'insensitive' }, ...pendingInviteWhere() },
    select: { id: true, referredById: true },
  });
  if (others.length) await tx.invite.updateMany({ where: { id: { in: others.map((o) => o.id) } }, data: { revoked: true } });
  for (const o of others) referrers.add(o.referredById);
  if (referrers.size) await announceInvitesChanged(tx, user.realmId, [...referrers]);
}

/** Everyone who may see a channel's subscribers: its subscribers, and for public channels all non-guests. */
async function peerAudience(tx: Tx, stream: { id: number; realmId: number; inviteOnly: boolean }) {
  const subs = await tx.subscription.findMany({ where: { streamId: stream.id, active: true, user: { isActive: true } }, select: { userId: true } });
  const ids = new Set(subs.map((s) => s.userId));
  if (!stream.inviteOnly) {
    const members = await tx.user.findMany({ where: { realmId: stream.realmId, isActive: true, role: { lte: ROLE.MEMBER } }, select: { id: true } });
    for (const m of members) ids.add(m.id);
  }
  return [...ids].sort((a, b) => a - b);
}

/**
 * Subscribes a brand-new account to the realm's live channels among `streamIds`, telling each
 * channel's subscriber viewers (peer_add).
 */
export async function doSubscribeNewUser(tx: Tx, realmId: number, userId: number, streamIds: number[]): Promise<void> {
  const streams = await tx.stream.findMany({ where: { id: { in: streamIds }, realmId, isArchived: false }, orderBy: { id: 'asc' } });
  for (const [i, stream] of streams.entries()) {
    const audience = await peerAudience(tx, stream);
    await tx.subscription.create({ data: { userId, streamId: stream.id, color: STREAM_COLORS[i % STREAM_COLORS.length]! } });
    await recordEvent(tx, {
      realmId,
      type: 'subscription',
      users: audience,
      event: { type: 'subscription', op: 'peer_add', stream_ids: [stream.id], user_ids: [userId] },
    });
  }
}

/**
 * Creates the account an invitation link promises: its role, its channels (and the realm's
 * default channels when it says so) and its groups, all in one transaction.
 */
export async function doSignUpWithInvite(
  services: Services,
  realm: { id: number; url: string },
  key: string,
  input: { email?: string; fullName: string; passwordHash?: string },
) {
  return services.db.$transaction(async (tx) => {
    const invite = await accessUsableInvite(tx, realm.id, key);
    const email = signUpEmail(invite, input.email);
    const checked = await checkNewUser(tx, { realmId: realm.id, email, fullName: input.fullName, role: invite.inviteAs }, SIGNUP_TEXTS);
    const user = await doCreateAnnouncedUser(tx, {
      realmId: realm.id,
      email: checked.email,
      fullName: checked.fullName,
      role: invite.inviteAs,
      fakeEmailDomain: fakeEmailDomain(realm.url),
    }, realm.url, {
      invited_by: invite.referredById,
      notify_referrer_on_join: invite.notifyReferrerOnJoin,
      welcome_message_custom_text: invite.welcomeMessageCustomText,
    });
    const realmRow = await tx.realm.findUniqueOrThrow({ where: { id: realm.id } });
    const wanted = new Set(invite.streamIds);
    if (invite.includeRealmDefaultSubscriptions) for (const id of defaultStreamIds(realmRow.settings)) wanted.add(id);
    await doSubscribeNewUser(tx, realm.id, user.id, [...wanted]);
    const groups = await tx.userGroup.findMany({ where: { id: { in: invite.groupIds }, realmId: realm.id, deactivated: false, isSystemGroup: false } });
    if (groups.length) {
      const everyone = await activeUserIds(tx, realm.id);
      for (const group of groups) {
        await tx.userGroupMember.create({ data: { groupId: group.id, userId: user.id } });
        await recordEvent(tx, {
          realmId: realm.id,
          type: 'user_group',
          users: everyone,
          event: { type: 'user_group', op: 'add_members', group_id: group.id, user_ids: [user.id] },
        });
      }
    }
    await doRetireInvites(tx, invite, user);
    // Stored in the same transaction: an account is never left without the password it was made with.
    if (input.passwordHash) return tx.user.update({ where: { id: user.id }, data: { passwordHash: input.passwordHash } });
    return user;
  });
}
