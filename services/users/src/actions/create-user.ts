import { errors, ROLE, ROLES } from '@chat/contracts';
import type { Db, Tx } from '@chat/db';
import { announceNewUser, doCreateUserInTx, type Announcement, type NewUser } from '@chat/realm';
import { usersWhoCanAccess } from '../lib/audience';
import { isValidEmail } from '../lib/emails';
import { checkEmailAllowedForRealm, CREATE_USER_TEXTS, type EmailRefusalTexts } from '../lib/email-policy';
import { checkFullName } from '../lib/names';
import { announceExportConsent, exportConsent } from './exports';

/**
 * Checks shared by every way an account is made (POST /users, invitations, JWT, command line).
 * `emailTexts` words the realm's address rules (allowed domains, disposable mailboxes) for the
 * way the account is made; null skips them (the server administrator's command line).
 */
export async function checkNewUser(
  db: Db | Tx,
  input: { realmId: number; email: string; fullName: string; role?: number },
  emailTexts: EmailRefusalTexts | null = CREATE_USER_TEXTS,
): Promise<{ email: string; fullName: string; role: number }> {
  const email = input.email.trim();
  if (!isValidEmail(email)) throw errors.badRequest(`Invalid address.`);
  if (emailTexts) await checkEmailAllowedForRealm(db, input.realmId, email, emailTexts);
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
 * Creates an account in the caller's transaction and announces it (@chat/realm's
 * announceNewUser) only to those who may access the new user: with can_access_all_users_group
 * narrowed, guests sharing nothing with a brand-new user hear nothing. `signup` (the invitation
 * used) travels with the event as routing, for the messaging service's onboarding messages.
 */
export async function doCreateAnnouncedUser(tx: Tx, input: NewUser, realmUrl: string, signup?: Announcement['signup']) {
  const user = await doCreateUserInTx(tx, { ...input, announce: false });
  await announceNewUser(tx, user, { audience: await usersWhoCanAccess(tx, user.realmId, user), realmUrl, signup });
  if (!user.isBot) await announceExportConsent(tx, user.realmId, user.id, exportConsent(user.settings));
  return user;
}

/**
 * Creates a checked account in one transaction, announced as doCreateAnnouncedUser does. For the
 * server administrator, who is not bound by the organization's address rules.
 */
export async function doCreateCheckedUser(db: Db, input: NewUser, realmUrl: string) {
  return db.$transaction(async (tx) => {
    const checked = await checkNewUser(tx, input, null);
    return doCreateAnnouncedUser(tx, { ...input, ...checked }, realmUrl);
  });
}
