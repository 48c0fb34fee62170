import { ApiError, errors } from '@chat/contracts';
import type { User } from '@chat/db';
import { passwordFingerprint } from '@chat/kit';
import type { Services } from '../context';
import { isValidEmail } from '../lib/emails';
import { noreplyAddress } from '../lib/invitation-email';
import { escapeHtml } from '../lib/render';
import { countRequest, issueToken, peekToken, takeToken } from '../lib/one-time-tokens';
import { checkPasswordStrength, doSetPassword } from './password-login';

/**
 * "Forgot password": a reset link mailed to the address, valid for a day and once, and only
 * while the password is the one it was issued against (the token carries a fingerprint of the
 * hash, so a completed reset voids every older link). The request's answer never says whether
 * the address has an account: either way a message goes to that address.
 */

export const RESET_LINK_VALID_SECONDS = 24 * 3600;
/** The family's limits on reset mail to one address: 2 an hour, 5 a day. */
const RESET_MAIL_WINDOWS: Array<[number, number]> = [[3600, 2], [86_400, 5]];

export const RESET_LINK_INVALID =
  'The password reset link is invalid, possibly because it has already been used or has expired. Please request a new password reset.';

/** What sending needs: the administrator's command line has no more than this. */
export type MailServices = Pick<Services, 'db' | 'redis' | 'config' | 'mail'>;

interface ResetToken {
  userId: number;
  realmId: number;
  fingerprint: string;
}

export interface RealmRef {
  id: number;
  url: string;
}

/** uidb64 of the family's reset paths: the user id, base64url without padding. */
export function encodeUid(userId: number): string {
  return Buffer.from(String(userId)).toString('base64url');
}

function decodeUid(uidb64: string): number | null {
  const text = /^[A-Za-z0-9_-]{1,16}$/.test(uidb64) ? Buffer.from(uidb64, 'base64url').toString() : '';
  return /^\d{1,10}$/.test(text) ? Number(text) : null;
}

export function resetPath(userId: number, token: string): string {
  return `/accounts/password/reset/${encodeUid(userId)}/${token}/`;
}

/** The active person of the realm with this login address, if any. */
async function findAccount(services: MailServices, realmId: number, email: string): Promise<User | null> {
  return services.db.user.findFirst({
    where: { realmId, isBot: false, deliveryEmail: { equals: email, mode: 'insensitive' } },
    orderBy: { id: 'asc' },
  });
}

/**
 * Mails a reset link (or, for an address with no active account here, a note saying so) to
 * `email`. Throws only for a malformed address or too many requests for it.
 */
export async function doSendPasswordReset(services: MailServices, realm: RealmRef, rawEmail: string, opts: { limit?: boolean } = {}): Promise<void> {
  const email = rawEmail.trim();
  if (!isValidEmail(email)) throw errors.badRequest('Enter a valid email address.');
  if (opts.limit !== false) {
    const wait = await countRequest(services, `reset:${realm.id}:${email.toLowerCase()}`, RESET_MAIL_WINDOWS);
    if (wait > 0) throw errors.rateLimited(wait);
  }
  const realmRow = await services.db.realm.findUniqueOrThrow({ where: { id: realm.id } });
  const user = await findAccount(services, realm.id, email);
  const from = { name: realmRow.name, address: noreplyAddress(services.config, realm.url) };
  if (!user || !user.isActive || realmRow.deactivated) {
    const text =
      `Someone (possibly you) requested a password reset email for ${email} on ${realm.url}, ` +
      `but there is no active account in ${realmRow.name} with this email address.\n\n` +
      'If you did not ask for this, you can ignore this message.\n';
    await services.mail.send({ from, to: email, subject: `Password reset request for ${realmRow.name}`, text, html: `<p>${escapeHtml(text)}</p>` });
    return;
  }
  const token = await issueToken(services, 'reset', { userId: user.id, realmId: realm.id, fingerprint: passwordFingerprint(user.passwordHash) } satisfies ResetToken, RESET_LINK_VALID_SECONDS);
  const link = new URL(resetPath(user.id, token), realm.url).href;
  const text = [
    `Someone (possibly you) requested a new password for your account ${user.deliveryEmail} in ${realmRow.name} (${realm.url}).`,
    '',
    'Click the link below to reset your password:',
    `    ${link}`,
    '',
    'The link works once and expires in 24 hours. If you did not ask for this, you can ignore this message.',
    '',
  ].join('\n');
  const html =
    `<p>Someone (possibly you) requested a new password for your account ${escapeHtml(user.deliveryEmail)} in ${escapeHtml(realmRow.name)}.</p>` +
    `<p><a href="${escapeHtml(link)}">Reset your password</a></p><p>The link works once and expires in 24 hours.</p>`;
  await services.mail.send({ from, to: user.deliveryEmail, subject: `Reset your password for ${realmRow.name}`, text, html });
}

function linkInvalid(): ApiError {
  return errors.resourceNotFound(RESET_LINK_INVALID);
}

async function checkResetToken(services: Services, realmId: number, uidb64: string, data: ResetToken | null): Promise<User> {
  const userId = decodeUid(uidb64);
  if (!data || userId === null || data.userId !== userId || data.realmId !== realmId) throw linkInvalid();
  const user = await services.db.user.findUnique({ where: { id: userId } });
  if (!user || !user.isActive || user.realmId !== realmId || passwordFingerprint(user.passwordHash) !== data.fingerprint) throw linkInvalid();
  return user;
}

/** The person a reset link is for, while it is good (it stays usable). */
export async function accessPasswordResetLink(services: Services, realmId: number, uidb64: string, token: string): Promise<User> {
  return checkResetToken(services, realmId, uidb64, await peekToken<ResetToken>(services, 'reset', token));
}

/** Sets the new password through a reset link, using the link up. */
export async function doResetPassword(services: Services, realmId: number, uidb64: string, token: string, newPassword: string): Promise<User> {
  await accessPasswordResetLink(services, realmId, uidb64, token);
  // Refused before the link is used up, so a weak choice can be corrected with the same link.
  checkPasswordStrength(newPassword);
  const user = await checkResetToken(services, realmId, uidb64, await takeToken<ResetToken>(services, 'reset', token));
  await doSetPassword(services, user.id, newPassword);
  return services.db.user.findUniqueOrThrow({ where: { id: user.id } });
}
