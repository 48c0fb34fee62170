import type { Db, User } from '@chat/db';
import type { AuthedIdentity } from '@chat/kit';
import { errors, type Actor } from '@chat/contracts';

/**
 * The caller, as the database knows them right now rather than as the identity says (it may be
 * up to a minute old: a role or a deactivation since then counts): the shared Actor, plus what
 * sending, typing and reactions need of the person.
 */
export interface LoadedActor extends Actor {
  fullName: string;
  botType: number | null;
  settings: Record<string, unknown>;
}

export async function loadActor(db: Db, identity: AuthedIdentity): Promise<LoadedActor> {
  return callerOfRow(await db.user.findUnique({ where: { id: identity.userId } }), identity).actor;
}

/** The caller `identity` names, from their row as read (null if it is gone), if they may act. */
export function callerOfRow(user: User | null, identity: AuthedIdentity): { actor: LoadedActor; user: User } {
  if (!user || user.realmId !== identity.realmId) throw errors.notLoggedIn();
  if (!user.isActive) throw errors.userDeactivated();
  return { actor: actorOf(user, identity.realmUrl), user };
}

/** A user acting in their realm, e.g. one whose scheduled message falls due, or a system bot. */
export function actorOf(user: User, realmUrl: string): LoadedActor {
  return {
    realmId: user.realmId,
    realmUrl,
    userId: user.id,
    email: user.email,
    fullName: user.fullName,
    role: user.role,
    isBot: user.isBot,
    botType: user.botType,
    settings: (user.settings ?? {}) as Record<string, unknown>,
  };
}

/**
 * `parse()`, whose refusal counts only once the caller (`loadCaller`) is known to be one who may
 * act: a request from a deactivated person is refused as such whatever its parameters.
 */
export async function refusedAfterCaller<T>(loadCaller: () => Promise<unknown>, parse: () => T): Promise<T> {
  try {
    return parse();
  } catch (err) {
    await loadCaller();
    throw err;
  }
}
