/**
 * The User object (GET /users, register's realm_users, the JWT login's user) and what it is made
 * of: who may see a real address, the join time, custom profile data.
 */
import { isAdmin, isGuest, isMember, isModerator, isOwner, type UserObject } from '@chat/contracts';
import type { CustomProfileFieldValue, User } from '@chat/db';
import { avatarUrlField } from './avatars';

/** Values of the email_address_visibility user setting. */
export const EMAIL_VISIBILITY = { EVERYONE: 1, MEMBERS: 2, ADMINS: 3, NOBODY: 4, MODERATORS: 5 } as const;

export function emailVisibilityOf(user: Pick<User, 'settings'>): number {
  const v = (user.settings as Record<string, unknown> | null)?.email_address_visibility;
  return typeof v === 'number' ? v : EMAIL_VISIBILITY.EVERYONE;
}

export interface Viewer {
  id: number;
  role: number;
}

/**
 * Whether `viewer` may read the real (delivery) address of a user whose email_address_visibility
 * is `target.visibility`. People always see their own address; bots' addresses are not personal
 * and are visible to all; spectators (null) see none.
 */
export function canSeeDeliveryEmail(viewer: Viewer | null, target: { id: number; isBot: boolean; visibility: number }): boolean {
  if (!viewer) return false;
  if (viewer.id === target.id || target.isBot) return true;
  switch (target.visibility) {
    case EMAIL_VISIBILITY.EVERYONE:
      return true;
    case EMAIL_VISIBILITY.MEMBERS:
      return isMember(viewer);
    case EMAIL_VISIBILITY.MODERATORS:
      return isModerator(viewer);
    case EMAIL_VISIBILITY.ADMINS:
      return isAdmin(viewer);
    default:
      return false;
  }
}

/** "2024-05-01T09:30+00:00": minute precision, explicit offset, as clients of this API parse it. */
export function isoMinutes(d: Date): string {
  return `${d.toISOString().slice(0, 16)}+00:00`;
}

/** Field id -> value (and its HTML, for Markdown types) of one user's custom profile fields. */
export type ProfileData = Record<string, { value: string; rendered_value?: string }>;

/** One user's profile_data from their value rows. */
export function profileData(values: Array<Pick<CustomProfileFieldValue, 'fieldId' | 'value' | 'renderedValue'>>): ProfileData {
  const out: ProfileData = {};
  for (const v of values) {
    out[String(v.fieldId)] = { value: v.value, ...(v.renderedValue !== null ? { rendered_value: v.renderedValue } : {}) };
  }
  return out;
}

/** profile_data of several users at once; `userIds` get an entry even when they have no values. */
export function profileDataByUser(
  values: Array<Pick<CustomProfileFieldValue, 'userId' | 'fieldId' | 'value' | 'renderedValue'>>,
  userIds: number[] = [],
): Map<number, ProfileData> {
  const rows = new Map<number, typeof values>(userIds.map((id) => [id, []]));
  for (const v of values) {
    const list = rows.get(v.userId);
    if (list) list.push(v);
    else rows.set(v.userId, [v]);
  }
  return new Map([...rows].map(([id, list]) => [id, profileData(list)]));
}

/** The columns of a users row that the User object is built from. */
export type UserObjectRow = Pick<
  User,
  | 'id' | 'email' | 'deliveryEmail' | 'fullName' | 'role' | 'isBot' | 'botType' | 'botOwnerId' | 'isActive'
  | 'isImportedStub' | 'dateJoined' | 'timezone' | 'avatarSource' | 'avatarVersion' | 'settings'
>;

export interface UserObjectOptions {
  realmUrl: string;
  clientGravatar: boolean;
  /** This user's custom profile data, when it was asked for; never shown for bots. */
  profileData?: ProfileData;
}

/** The User object as `viewer` (null for a spectator) may see it. */
export function userObject(user: UserObjectRow, viewer: Viewer | null, opts: UserObjectOptions): UserObject {
  const visibility = emailVisibilityOf(user);
  const out: UserObject = {
    user_id: user.id,
    delivery_email: canSeeDeliveryEmail(viewer, { id: user.id, isBot: user.isBot, visibility }) ? user.deliveryEmail : null,
    email: user.email,
    full_name: user.fullName,
    date_joined: isoMinutes(user.dateJoined),
    is_active: user.isActive,
    is_owner: isOwner(user),
    is_admin: isAdmin(user),
    is_guest: isGuest(user),
    is_bot: user.isBot,
    bot_type: user.isBot ? user.botType : null,
    bot_owner_id: user.isBot ? user.botOwnerId : null,
    role: user.role,
    timezone: user.timezone,
    avatar_url: avatarUrlField(user, {
      realmUrl: opts.realmUrl,
      clientGravatar: opts.clientGravatar,
      emailPublic: visibility === EMAIL_VISIBILITY.EVERYONE,
    }),
    avatar_version: user.avatarVersion,
    is_imported_stub: user.isImportedStub,
  };
  if (!user.isBot && opts.profileData) out.profile_data = opts.profileData;
  return out;
}
