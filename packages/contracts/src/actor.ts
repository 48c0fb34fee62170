import { ROLE } from './constants';
import { errors } from './errors';
import type { Identity } from './identity';

/**
 * Who is calling an action: the one shape every service's actions take, built from the
 * identity the gateway signed. A service that needs more of the caller (messaging loads the
 * user row for its name and settings) extends it and keeps these field names.
 */
export interface Actor {
  realmId: number;
  /** Realm's canonical URL, for links the action builds. */
  realmUrl: string;
  userId: number;
  email: string;
  role: number;
  isBot: boolean;
}

/** The role predicates accept anything with a role: an Actor, or a user row being judged. */
type HasRole = { role: number };

// Lower role numbers carry more rights (ROLE), so "at least X" is `role <= X`.
export const isOwner = (a: HasRole): boolean => a.role === ROLE.OWNER;
/** An administrator or an owner. */
export const isAdmin = (a: HasRole): boolean => a.role <= ROLE.ADMINISTRATOR;
/** A moderator or anyone above. */
export const isModerator = (a: HasRole): boolean => a.role <= ROLE.MODERATOR;
/** A member or anyone above: everyone but guests. */
export const isMember = (a: HasRole): boolean => a.role <= ROLE.MEMBER;
export const isGuest = (a: HasRole): boolean => a.role === ROLE.GUEST;

/** Administrator-only endpoints answer UNAUTHORIZED_PRINCIPAL to everyone else. */
export function checkAdmin(a: HasRole): void {
  if (!isAdmin(a)) throw errors.mustBeAdmin();
}

export function checkOwner(a: HasRole): void {
  if (!isOwner(a)) throw errors.mustBeOwner();
}

/** Guests may not do what members may (create things others see, invite, ...). */
export function checkNotGuest(a: HasRole): void {
  if (isGuest(a)) throw errors.insufficientPermission();
}

/** Endpoints meant for people's own devices refuse bots. */
export function checkNotBot(a: { isBot: boolean }): void {
  if (a.isBot) throw errors.botsNotAllowed();
}

/**
 * The caller an identity names. An identity without a user (a route that allows anonymous
 * requests) has no actor: that is "not logged in", whatever the route then wanted to do.
 */
export function actorFromIdentity(identity: Identity): Actor {
  const { realmId, realmUrl, userId, email, role, isBot } = identity;
  if (userId === undefined || email === undefined || role === undefined || isBot === undefined) throw errors.notLoggedIn();
  return { realmId, realmUrl, userId, email, role, isBot };
}

/** For routes open to spectators: the caller when someone is signed in, null for a spectator. */
export function optionalActor(identity: Identity): Actor | null {
  return identity.userId === undefined ? null : actorFromIdentity(identity);
}
