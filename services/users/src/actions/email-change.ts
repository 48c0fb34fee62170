import { checkNotBot, errors, isAdmin, type Actor } from '@chat/contracts';
import type { Db, Tx, User } from '@chat/db';
import { realmPolicies } from '@chat/realm';
import type { Services } from '../context';
import { forgetCachedAuth } from '../lib/auth-cache';
import { isValidEmail } from '../lib/emails';
import { INVITE_TEXTS, realmEmailValidator } from '../lib/email-policy';
import { noreplyAddress } from '../lib/invitation-email';
import { countRequest, issueSoleToken, takeToken } from '../lib/one-time-tokens';
import { escapeHtml } from '../lib/render';
import { CONFIRMATION_LINK_GONE } from './email-signup';
import { doChangeDeliveryEmail } from './manage-users';

/**
 * A person changing their own address (`PATCH /settings` with `email`), as the family's server
 * does it: nothing changes at first; a link mailed to the new address, valid a day and once,
 * makes the change when opened (`/accounts/confirm_new_email/<key>/`), and the old address is
 * then told. Only the newest request's link works.
 */

/** The family's confirmation links live a day (CONFIRMATION_LINK_DEFAULT_VALIDITY_DAYS). */
export const EMAIL_CHANGE_VALID_SECONDS = 24 * 3600;
/**
 * The family's limit on change requests per person (`email_change_by_user`): each mails an
 * address with no relationship to the server yet, so it could be used to send spam.
 */
const EMAIL_CHANGE_WINDOWS: Array<[number, number]> = [[3600, 2], [86_400, 5]];

interface EmailChangeToken {
  userId: number;
  realmId: number;
  oldEmail: string;
  newEmail: string;
}

export interface EmailChangeDone {
  oldEmail: string;
  newEmail: string;
}

/** Where the family's mails tell people to write when something is wrong. */
function supportAddress(services: Services, realmUrl: string): string {
  return services.config.EXPORT_SUPPORT_EMAIL || `support@${new URL(realmUrl).hostname}`;
}

/**
 * Whether `user` may take `email` now, with the family's refusals and words: the realm's
 * `email_changes_disabled` (administrators exempt), a malformed address, the realm's address
 * rules (as an invitation words them), an address another account of the realm already has.
 */
async function checkNewEmailFor(db: Db | Tx, user: User, email: string): Promise<void> {
  if (!user.isActive) throw errors.userDeactivated();
  const realm = await db.realm.findUniqueOrThrow({ where: { id: user.realmId }, select: { settings: true } });
  if (realmPolicies(realm.settings).email_changes_disabled && !isAdmin(user)) throw errors.emailChangesDisabled();
  if (!isValidEmail(email)) throw errors.badRequest('Invalid address.');
  const refusal = (await realmEmailValidator(db, user.realmId))(email);
  if (refusal) throw errors.badRequest(INVITE_TEXTS[refusal](email));
  const taken = await db.user.findFirst({
    where: { realmId: user.realmId, id: { not: user.id }, deliveryEmail: { equals: email, mode: 'insensitive' } },
    select: { isActive: true },
  });
  if (taken) throw errors.badRequest(taken.isActive ? 'Already has an account.' : 'Account has been deactivated.');
}

/**
 * First step: the address the change would be to, or null when there is nothing to change (the
 * same address). A refused request changes nothing and mails nothing; an accepted one counts
 * against the limits here, before the request's other settings are saved, as on the family's
 * server.
 */
export async function checkEmailChange(services: Services, actor: Actor, rawEmail: string): Promise<string | null> {
  checkNotBot(actor);
  const email = rawEmail.trim();
  const me = await services.db.user.findUniqueOrThrow({ where: { id: actor.userId } });
  if (email === me.deliveryEmail) return null;
  await checkNewEmailFor(services.db, me, email);
  const wait = await countRequest(services, `email-change:${actor.userId}`, EMAIL_CHANGE_WINDOWS);
  if (wait > 0) throw errors.rateLimited(wait);
  return email;
}

/** Second step: mails the link to the new address (voiding any earlier link of this person). */
export async function doStartEmailChange(services: Services, actor: Actor, newEmail: string): Promise<void> {
  const me = await services.db.user.findUniqueOrThrow({ where: { id: actor.userId } });
  const realm = await services.db.realm.findUniqueOrThrow({ where: { id: actor.realmId } });
  const data: EmailChangeToken = { userId: me.id, realmId: me.realmId, oldEmail: me.deliveryEmail, newEmail };
  const token = await issueSoleToken(services, 'emailchange', String(me.id), data, EMAIL_CHANGE_VALID_SECONDS);
  const link = new URL(`/accounts/confirm_new_email/${token}/`, actor.realmUrl).href;
  const support = supportAddress(services, actor.realmUrl);
  const text = [
    `Hi ${me.fullName},`,
    '',
    `We received a request to change the email address for the account on ${actor.realmUrl} from ${me.deliveryEmail} to ${newEmail}. To confirm this change, please click below:`,
    '',
    `    ${link}`,
    '',
    `If you did not request this change, please contact us immediately at <${support}>.`,
    '',
  ].join('\n');
  const html =
    `<p>Hi ${escapeHtml(me.fullName)},</p>` +
    `<p>We received a request to change the email address for the account on ${escapeHtml(actor.realmUrl)} from ` +
    `${escapeHtml(me.deliveryEmail)} to ${escapeHtml(newEmail)}. To confirm this change, please click below:</p>` +
    `<p><a href="${escapeHtml(link)}">Confirm email change</a></p>` +
    `<p>If you did not request this change, please contact us immediately at ${escapeHtml(support)}.</p>`;
  await services.mail.send({
    from: { name: `${realm.name} account security`, address: noreplyAddress(services.config, actor.realmUrl) },
    to: newEmail,
    subject: `Verify your new email address for ${new URL(actor.realmUrl).host}`,
    text,
    html,
  });
}

/**
 * Opening the link: uses it up, checks the change again (the realm's rules may have changed, or
 * someone taken the address meanwhile), makes it, tells the old address, and forgets the
 * gateways' cached authentication when the API address changed.
 */
export async function doConfirmEmailChange(services: Services, realm: { id: number; url: string }, token: string): Promise<EmailChangeDone> {
  const data = await takeToken<EmailChangeToken>(services, 'emailchange', token);
  if (!data || data.realmId !== realm.id) throw errors.resourceNotFound(CONFIRMATION_LINK_GONE);
  const realmRow = await services.db.realm.findUniqueOrThrow({ where: { id: realm.id } });
  if (realmRow.deactivated) throw errors.realmDeactivated();
  const staleKey = await services.db.$transaction(async (tx) => {
    // Row lock: a concurrent change of this person (an administrator's, another link) waits.
    await tx.$queryRawUnsafe('SELECT 1 FROM users WHERE id = $1 FOR UPDATE', data.userId);
    const user = await tx.user.findUniqueOrThrow({ where: { id: data.userId } });
    // Changed some other way since the link was sent: the link no longer describes a change.
    if (user.deliveryEmail !== data.oldEmail) throw errors.resourceNotFound(CONFIRMATION_LINK_GONE);
    await checkNewEmailFor(tx, user, data.newEmail);
    return (await doChangeDeliveryEmail(tx, user, data.newEmail, realm.url)) ? user.apiKey : null;
  });
  if (staleKey) await forgetCachedAuth(services, staleKey);
  const support = supportAddress(services, realm.url);
  const text = [
    'Hi,',
    '',
    `The email associated with your account in ${realmRow.name} was recently changed to ${data.newEmail}. If you did not request this change, please contact us immediately at <${support}>.`,
    '',
  ].join('\n');
  await services.mail.send({
    from: { name: `${realmRow.name} account security`, address: noreplyAddress(services.config, realm.url) },
    to: data.oldEmail,
    subject: `Email changed for ${realmRow.name}`,
    text,
    html: `<p>Hi,</p><p>The email associated with your account in ${escapeHtml(realmRow.name)} was recently changed to ${escapeHtml(data.newEmail)}. ` +
      `If you did not request this change, please contact us immediately at ${escapeHtml(support)}.</p>`,
  });
  return { oldEmail: data.oldEmail, newEmail: data.newEmail };
}
