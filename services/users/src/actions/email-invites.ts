import { errors, type InviteFailure, isAdmin, type Actor } from '@chat/contracts';
import type { Invite, Tx } from '@chat/db';
import { realmPolicies } from '@chat/realm';
import type { Services } from '../context';
import { invitationEmail } from '../lib/invitation-email';
import { scheduleInviteReminder } from './invite-reminders';
import { realmEmailValidator } from '../lib/email-policy';
import { inviteeEmailProblem, parseInviteeEmails } from '../lib/invitees';
import type { MailMessage } from '../workers/mail';
import {
  accessInviteForControl,
  announceInvitesChanged,
  checkInviteTerms,
  checkMayInvite,
  checkWelcomeTextLength,
  generateInviteKey,
  inviteLink,
  type InviteInput,
} from './invites';

/** In a realm anyone may join, a brand-new account cannot send invitations (spam). */
const MIN_INVITER_AGE_DAYS = 3;

export interface EmailInviteInput extends InviteInput {
  /** Addresses separated by commas or newlines (`Name <address>` allowed). */
  inviteeEmails: string;
  notifyReferrerOnJoin: boolean;
}

/**
 * Addresses that already belong to an account of the realm: active ones "Already has an
 * account.", deactivated ones "Account has been deactivated." (flagged, so a client can offer
 * reactivation instead).
 */
async function existingAccountFailures(tx: Tx, realmId: number, emails: string[]): Promise<Map<string, InviteFailure>> {
  const failures = new Map<string, InviteFailure>();
  if (!emails.length) return failures;
  const users = await tx.user.findMany({
    where: {
      realmId,
      OR: emails.flatMap((e) => [{ deliveryEmail: { equals: e, mode: 'insensitive' as const } }, { email: { equals: e, mode: 'insensitive' as const } }]),
    },
    select: { email: true, deliveryEmail: true, isActive: true },
  });
  for (const email of emails) {
    const lower = email.toLowerCase();
    const user = users.find((u) => u.deliveryEmail.toLowerCase() === lower || u.email.toLowerCase() === lower);
    if (user) failures.set(email, [email, user.isActive ? 'Already has an account.' : 'Account has been deactivated.', !user.isActive]);
  }
  return failures;
}

/**
 * The daily limit on email invitations (spam protection), when INVITES_DAILY_LIMIT_ENABLED:
 * what the realm sent in the last 24 hours plus `count` may not exceed
 * INVITES_DEFAULT_REALM_DAILY_MAX. The realm row is locked first, so two requests cannot both
 * slip under the limit; the lock lasts until the invitations are written.
 */
async function checkInviteLimit(tx: Tx, services: Services, realmId: number, count: number): Promise<void> {
  const { INVITES_DAILY_LIMIT_ENABLED: enabled, INVITES_DEFAULT_REALM_DAILY_MAX: max } = services.config;
  if (!enabled) return;
  await tx.$queryRawUnsafe('SELECT 1 FROM realms WHERE id = $1 FOR NO KEY UPDATE', realmId);
  const recent = await tx.invite.count({
    where: { realmId, email: { not: null }, dateCreated: { gte: new Date(Date.now() - 86_400_000) } },
  });
  if (recent + count > max) throw errors.invitesDailyLimit();
}

/** The invitation message for a stored email invitation, with its referrer and realm. */
async function renderInvitation(tx: Tx, services: Services, invite: Invite, realmUrl: string): Promise<MailMessage> {
  const [realm, referrer] = await Promise.all([
    tx.realm.findUniqueOrThrow({ where: { id: invite.realmId } }),
    tx.user.findUniqueOrThrow({ where: { id: invite.referredById } }),
  ]);
  return invitationEmail(services.config, {
    to: invite.email!,
    link: inviteLink(realmUrl, invite.key),
    expiresAt: invite.expiresAt,
    referrer,
    realm: { name: realm.name, url: realmUrl },
  });
}

/**
 * POST /invites: one single-use invitation per address, all or nothing while any address is
 * invalid. Addresses that already have an account are skipped; if that leaves anyone, the
 * others are invited and the answer still reports the skipped ones. Messages are queued only
 * once the invitations are committed.
 */
export async function doInviteUsers(services: Services, actor: Actor, input: EmailInviteInput): Promise<void> {
  checkWelcomeTextLength(input.welcomeMessageCustomText);
  const { messages, skipped } = await services.db.$transaction(async (tx) => {
    const me = await checkMayInvite(tx, actor, 'can_invite_users_group');
    const terms = await checkInviteTerms(tx, actor, me, input, () => {
      if (!input.inviteeEmails) throw errors.badRequest('You must specify at least one email address.');
    });
    const emails = parseInviteeEmails(input.inviteeEmails);
    // Every address asked for counts, as for the reference servers: before anything else is
    // looked at, so nothing is written or mailed past the limit.
    await checkInviteLimit(tx, services, actor.realmId, emails.length);
    const realm = await tx.realm.findUniqueOrThrow({ where: { id: actor.realmId }, select: { settings: true } });
    const policies = realmPolicies(realm.settings);
    if (!policies.invite_required && !isAdmin(actor) && me.dateJoined.getTime() > Date.now() - MIN_INVITER_AGE_DAYS * 86_400_000) {
      throw errors.inviterTooNew();
    }

    const refusal = await realmEmailValidator(tx, actor.realmId);
    const invalid: InviteFailure[] = [];
    const valid: string[] = [];
    for (const email of emails) {
      const problem = inviteeEmailProblem(email, refusal);
      if (problem) invalid.push([email, problem, false]);
      else valid.push(email);
    }
    const existing = await existingAccountFailures(tx, actor.realmId, valid);
    const skipped = [...existing.values()];
    if (invalid.length) throw errors.invitesInvalid([...invalid, ...skipped]);
    if (skipped.length === emails.length) throw errors.invitesNoneSent(skipped);

    const sent: { invite: Invite; message: MailMessage }[] = [];
    for (const email of valid.filter((e) => !existing.has(e))) {
      const invite = await tx.invite.create({
        data: { realmId: actor.realmId, key: generateInviteKey(), referredById: actor.userId, email, notifyReferrerOnJoin: input.notifyReferrerOnJoin, ...terms },
      });
      sent.push({ invite, message: await renderInvitation(tx, services, invite, actor.realmUrl) });
    }
    await announceInvitesChanged(tx, actor.realmId, [actor.userId]);
    return { messages: sent, skipped };
  });
  for (const { invite, message } of messages) {
    await services.mail.send(message);
    await scheduleInviteReminder(services, invite, actor.realmUrl, invite.dateCreated);
  }
  if (skipped.length) throw errors.invitesSomeSkipped(skipped);
}

/**
 * POST /invites/{id}/resend: the same link, mailed again (within the daily limit, like any
 * sending); an invitation no longer open is refused. Its reminder is rescheduled from now.
 */
export async function doResendInvite(services: Services, actor: Actor, inviteId: number): Promise<void> {
  const { invite, message } = await services.db.$transaction(async (tx) => {
    const invite = await accessInviteForControl(tx, actor, inviteId, false);
    if (invite.revoked) throw errors.badRequest('Invitation has already been revoked');
    const expired = invite.expiresAt !== null && invite.expiresAt <= new Date();
    if (invite.createdUserId !== null || expired) throw errors.badRequest('No such invitation');
    await checkInviteLimit(tx, services, actor.realmId, 1);
    return { invite, message: await renderInvitation(tx, services, invite, actor.realmUrl) };
  });
  await services.mail.send(message);
  await scheduleInviteReminder(services, invite, actor.realmUrl, new Date());
}
