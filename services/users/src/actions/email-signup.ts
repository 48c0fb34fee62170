import { ApiError, errors, ROLE } from '@chat/contracts';
import { realmPolicies } from '@chat/realm';
import type { Services } from '../context';
import { fakeEmailDomain, isValidEmail } from '../lib/emails';
import { checkEmailAllowedForRealm, SIGNUP_TEXTS } from '../lib/email-policy';
import { noreplyAddress } from '../lib/invitation-email';
import { checkFullName } from '../lib/names';
import { countRequest, issueToken, peekToken, takeToken } from '../lib/one-time-tokens';
import { hashPassword } from '../lib/passwords';
import { escapeHtml } from '../lib/render';
import { checkNewUser, doCreateAnnouncedUser } from './create-user';
import { defaultStreamIds } from './invites';
import { doSubscribeNewUser } from './signup';
import { checkPasswordStrength } from './password-login';

/**
 * Signing up without an invitation, where the realm allows it (`invite_required` off): the
 * address is confirmed by a link mailed to it (valid a day, used once), which leads to the
 * form that creates the account. The realm's address rules apply as for invitations.
 */

export const CONFIRMATION_VALID_SECONDS = 24 * 3600;
const CONFIRM_MAIL_WINDOWS: Array<[number, number]> = [[3600, 5], [86_400, 20]];
export const CONFIRMATION_LINK_GONE = 'Whoops. The confirmation link has expired or been deactivated.';

/** Thrown when the address already has an account: the page sends the person to log in. */
export class AlreadyRegistered extends ApiError {
  constructor(readonly email: string) {
    super('BAD_REQUEST', `Email '${email}' already in use`, 400);
  }
}

export interface RealmRef {
  id: number;
  url: string;
}

interface Confirmation {
  realmId: number;
  email: string;
}

/** Whether anyone may sign up here without an invitation. */
export async function openSignupAllowed(services: Services, realmId: number): Promise<boolean> {
  const realm = await services.db.realm.findUnique({ where: { id: realmId } });
  return !!realm && !realm.deactivated && !realmPolicies(realm.settings).invite_required;
}

async function checkSignupEmail(services: Services, realmId: number, rawEmail: string): Promise<string> {
  const email = rawEmail.trim();
  if (!isValidEmail(email)) throw errors.badRequest('Enter a valid email address.');
  if (!(await openSignupAllowed(services, realmId))) {
    throw errors.badRequest(`Please request an invite for ${email} from the organization administrator.`);
  }
  await checkEmailAllowedForRealm(services.db, realmId, email, SIGNUP_TEXTS);
  const taken = await services.db.user.findFirst({ where: { realmId, deliveryEmail: { equals: email, mode: 'insensitive' } }, select: { id: true } });
  if (taken) throw new AlreadyRegistered(email);
  return email;
}

/** Mails the confirmation link for `email`; returns the address as it will be used. */
export async function doSendSignupConfirmation(services: Services, realm: RealmRef, rawEmail: string): Promise<string> {
  const email = await checkSignupEmail(services, realm.id, rawEmail);
  const wait = await countRequest(services, `confirm:${realm.id}:${email.toLowerCase()}`, CONFIRM_MAIL_WINDOWS);
  if (wait > 0) throw errors.rateLimited(wait);
  const realmRow = await services.db.realm.findUniqueOrThrow({ where: { id: realm.id } });
  const token = await issueToken(services, 'confirm', { realmId: realm.id, email } satisfies Confirmation, CONFIRMATION_VALID_SECONDS);
  const link = new URL(`/accounts/do_confirm/${token}`, realm.url).href;
  const text = [
    `You recently signed up for ${realmRow.name} (${realm.url}) with this email address.`,
    '',
    'Click the link below to confirm your address and finish creating your account:',
    `    ${link}`,
    '',
    'The link expires in 24 hours. If you did not sign up, you can ignore this message.',
    '',
  ].join('\n');
  await services.mail.send({
    from: { name: realmRow.name, address: noreplyAddress(services.config, realm.url) },
    to: email,
    subject: `Activate your account for ${realmRow.name}`,
    text,
    html: `<p>You recently signed up for <b>${escapeHtml(realmRow.name)}</b>.</p><p><a href="${escapeHtml(link)}">Confirm and create your account</a></p>`,
  });
  return email;
}

/** The confirmed address a link stands for, while it is good (it stays usable). */
export async function accessSignupConfirmation(services: Services, realmId: number, token: string): Promise<string> {
  const data = await peekToken<Confirmation>(services, 'confirm', token);
  if (!data || data.realmId !== realmId) throw errors.resourceNotFound(CONFIRMATION_LINK_GONE);
  return data.email;
}

/** Creates the account a confirmation link promises, with its password, using the link up. */
export async function doSignUpWithConfirmation(services: Services, realm: RealmRef, token: string, input: { fullName: string; password: string }) {
  const email = await accessSignupConfirmation(services, realm.id, token);
  checkPasswordStrength(input.password);
  const fullName = checkFullName(input.fullName);
  await checkSignupEmail(services, realm.id, email);
  const passwordHash = await hashPassword(input.password);
  const data = await takeToken<Confirmation>(services, 'confirm', token);
  if (!data || data.realmId !== realm.id) throw errors.resourceNotFound(CONFIRMATION_LINK_GONE);
  return services.db.$transaction(async (tx) => {
    const checked = await checkNewUser(tx, { realmId: realm.id, email, fullName, role: ROLE.MEMBER }, SIGNUP_TEXTS);
    const user = await doCreateAnnouncedUser(tx, { realmId: realm.id, email: checked.email, fullName: checked.fullName, role: ROLE.MEMBER, fakeEmailDomain: fakeEmailDomain(realm.url) }, realm.url);
    // As on the family's server, someone who joins without an invitation gets the default channels.
    const realmRow = await tx.realm.findUniqueOrThrow({ where: { id: realm.id } });
    await doSubscribeNewUser(tx, realm.id, user.id, defaultStreamIds(realmRow.settings));
    return tx.user.update({ where: { id: user.id }, data: { passwordHash } });
  });
}
