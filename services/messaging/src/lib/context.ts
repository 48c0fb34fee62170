import type { Db, User } from '@chat/db';
import type { AuthedIdentity } from '@chat/kit';
import { errors, ROLE } from '@chat/contracts';

/** The caller, as the database knows them right now (the identity may be up to a minute old). */
export interface Actor {
  realmId: number;
  realmUrl: string;
  userId: number;
  email: string;
  fullName: string;
  role: number;
  isBot: boolean;
  botType: number | null;
  settings: Record<string, unknown>;
}

export const isAdmin = (a: { role: number }) => a.role <= ROLE.ADMINISTRATOR;
export const isModerator = (a: { role: number }) => a.role <= ROLE.MODERATOR;
export const isGuest = (a: { role: number }) => a.role === ROLE.GUEST;

export async function loadActor(db: Db, identity: AuthedIdentity): Promise<Actor> {
  return (await loadActorRow(db, identity)).actor;
}

/** The caller with their row, for actions that need more of it than the Actor holds (a send). */
export async function loadActorRow(db: Db, identity: AuthedIdentity): Promise<{ actor: Actor; user: User }> {
  const user = await db.user.findUnique({ where: { id: identity.userId } });
  if (!user || user.realmId !== identity.realmId) throw errors.notLoggedIn();
  if (!user.isActive) throw errors.userDeactivated();
  return { actor: actorOf(user, identity.realmUrl), user };
}

/** A user acting in their realm, e.g. one whose scheduled message falls due, or a system bot. */
export function actorOf(user: User, realmUrl: string): Actor {
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
