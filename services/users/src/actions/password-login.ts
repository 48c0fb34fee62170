import { ApiError, errors, type Identity } from '@chat/contracts';
import { redisKeys } from '@chat/bus';
import { keepBrowserSession, LoginFailureLimiter } from '@chat/kit';
import type { User } from '@chat/db';
import type { Services } from '../context';
import { doNotifyNewLogin } from './login-notice';
import { forgetCachedAuth } from '../lib/auth-cache';
import { hashPassword, isStrongPassword, verifyPassword } from '../lib/passwords';
import { passwordAuthEnabled } from '@chat/wire';

/**
 * Email and password login (POST /fetch_api_key, the login page). Guessing is limited per
 * source address and per claimed account (LoginFailureLimiter); an address that matches no
 * account still costs a full hash, so timing does not tell whether it exists.
 */

const limiters = new WeakMap<Services, LoginFailureLimiter>();

export function passwordLimiter(services: Services): LoginFailureLimiter {
  let limiter = limiters.get(services);
  if (!limiter) {
    const c = services.config;
    limiter = new LoginFailureLimiter(services.redis, (subject) => redisKeys(c.REDIS_PREFIX).loginFailurePrefix('password', subject), {
      perIp: { failures: c.LOGIN_FAILURES_PER_IP, windowSeconds: c.LOGIN_FAILURES_PER_IP_SECONDS },
      perAccount: { failures: c.LOGIN_FAILURES_PER_ACCOUNT, windowSeconds: c.LOGIN_FAILURES_PER_ACCOUNT_SECONDS },
    });
    limiters.set(services, limiter);
  }
  return limiter;
}

/** Login names are email addresses (require_email_format_usernames). */
const EMAIL_SHAPE = /^[^\s@]+@[^\s@]+$/;

/** Verified against when no account matches, so a miss costs what a wrong password costs. */
let dummyHash: Promise<string> | undefined;

export interface PasswordLoginInput {
  realmId: number;
  username: string;
  password: string;
  /** The client's address, as the gateway saw it. */
  ip: string;
}

/**
 * The active human user of the realm whose address (delivery email, or API email) is
 * `username`, case-insensitively, if `password` is theirs. Throws AUTHENTICATION_FAILED,
 * USER_DEACTIVATED, REALM_DEACTIVATED, PASSWORD_AUTH_DISABLED or RATE_LIMIT_HIT.
 */
export async function accessUserByPassword(services: Services, input: PasswordLoginInput): Promise<User> {
  const realm = await services.db.realm.findUnique({ where: { id: input.realmId } });
  if (!realm) throw errors.nonexistentRealm();
  if (!passwordAuthEnabled(realm.settings)) throw errors.passwordAuthDisabled();
  const username = input.username.trim();
  const subject = { ip: input.ip, account: `${realm.id}:${username}` };
  const limiter = passwordLimiter(services);
  await limiter.check(subject);

  const user = username
    ? await services.db.user.findFirst({
        where: {
          realmId: realm.id,
          isBot: false,
          OR: [{ deliveryEmail: { equals: username, mode: 'insensitive' } }, { email: { equals: username, mode: 'insensitive' } }],
        },
        orderBy: { id: 'asc' },
      })
    : null;
  // As the API family's server does, a closed account or organization is named before the
  // password is checked (clients show the reason); it still counts as a failed attempt.
  if (user && (!user.isActive || realm.deactivated)) {
    await limiter.failed(subject);
    throw realm.deactivated ? errors.realmDeactivated() : errors.userDeactivated();
  }
  let valid = false;
  if (user?.passwordHash) {
    valid = await verifyPassword(input.password, user.passwordHash);
  } else {
    dummyHash ??= hashPassword('an unguessable password that belongs to nobody');
    await verifyPassword(input.password, await dummyHash);
  }
  if (!user || !valid || !input.password) {
    await limiter.failed(subject);
    throw errors.authenticationFailed();
  }
  await limiter.succeeded(subject);
  return user;
}

/** POST /fetch_api_key: the key of the account the pair names, with its login address. */
export async function fetchApiKeyWithPassword(services: Services, identity: Identity, username: string, password: string, userAgent = '') {
  if (!EMAIL_SHAPE.test(username.trim())) throw errors.badRequest('Enter a valid email address.');
  const user = await accessUserByPassword(services, { realmId: identity.realmId, username, password, ip: identity.clientIp ?? '' });
  await doNotifyNewLogin(services, identity, user, { userAgent, ip: identity.clientIp ?? '' });
  return { api_key: user.apiKey, email: user.deliveryEmail, user_id: user.id };
}

/** Refuses a password the strength policy rejects, with the API family's message. */
export function checkPasswordStrength(password: string): void {
  if (!isStrongPassword(password)) throw errors.badRequest('The password is too weak.');
}

/**
 * Sets a user's login password after the strength check. The API key stays as it is (as on
 * the API family's server): a password change does not log out the user's apps.
 */
export async function doSetPassword(services: PasswordServices, userId: number, newPassword: string): Promise<void> {
  checkPasswordStrength(newPassword);
  await storePasswordHash(services, userId, await hashPassword(newPassword));
}

type PasswordServices = Pick<Services, 'db' | 'redis' | 'config'>;

/**
 * A new password ends the person's browser sessions: the pages compare the session's
 * fingerprint on every request, and the gateways, which keep session users in memory for a few
 * seconds (ADR 0036), are told to drop them. `keepSession`, the session the person changed it
 * from, is kept (kit's keepBrowserSession). Its record is rewritten after the new hash is
 * stored and before the gateways are told: a gateway that still keeps the old row re-reads it
 * when a record disagrees with it, so the kept session is never refused for want of the forget.
 */
async function storePasswordHash(services: PasswordServices, userId: number, passwordHash: string, keepSession?: string): Promise<void> {
  const user = await services.db.user.update({ where: { id: userId }, data: { passwordHash }, select: { apiKey: true } });
  if (keepSession !== undefined) {
    await keepBrowserSession(services.redis, redisKeys(services.config.REDIS_PREFIX).pageSession(keepSession), userId, passwordHash);
  }
  await forgetCachedAuth(services, user.apiKey);
}

/**
 * PATCH /settings with new_password: the caller proves the old password (counted by the same
 * failure limits as a login) and picks a strong new one. Returns the new hash without storing
 * it, so the route can store it only once the other settings of the request were accepted.
 * Messages are the API family's.
 */
export async function checkOwnPasswordChange(
  services: Services,
  identity: Identity & { userId: number },
  oldPassword: string | undefined,
  newPassword: string,
): Promise<{ userId: number; passwordHash: string }> {
  const me = await services.db.user.findUniqueOrThrow({ where: { id: identity.userId } });
  try {
    await accessUserByPassword(services, { realmId: me.realmId, username: me.deliveryEmail, password: oldPassword ?? '', ip: identity.clientIp ?? '' });
  } catch (err) {
    if (err instanceof ApiError && err.code === 'RATE_LIMIT_HIT') {
      throw errors.badRequest(`You're making too many attempts! Try again in ${String(err.extra['retry-after'])} seconds.`);
    }
    throw errors.badRequest('Wrong password!');
  }
  if (!isStrongPassword(newPassword)) throw errors.badRequest('New password is too weak!');
  return { userId: me.id, passwordHash: await hashPassword(newPassword) };
}

/**
 * Stores a hash checkOwnPasswordChange made. `fromSession`: the browser session the change came
 * from (the identity's `sessionId`), which stays logged in, as on the family's server; every
 * other session of the person ends. From an API key, every session ends.
 */
export async function doStorePasswordHash(
  services: PasswordServices,
  change: { userId: number; passwordHash: string },
  fromSession?: string,
): Promise<void> {
  await storePasswordHash(services, change.userId, change.passwordHash, fromSession);
}
