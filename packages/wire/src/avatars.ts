/**
 * Avatar and realm icon URLs. The users service (User objects), the uploads service (avatar and
 * icon changes, GET /avatar) and register all hand these out, so they must be the same string.
 */
import { createHash } from 'node:crypto';
import type { Realm, User } from '@chat/db';

/** Side, in pixels, of the "medium" avatar clients show on profiles. */
export const MEDIUM_AVATAR_SIZE = 500;

export type AvatarRow = Pick<User, 'id' | 'deliveryEmail' | 'avatarSource' | 'avatarVersion'>;

function md5(text: string): string {
  return createHash('md5').update(text).digest('hex');
}

/** Gravatar's identicon for an address; `version` busts caches when the avatar changes. */
export function gravatarUrl(email: string, version: number, medium = false): string {
  const size = medium ? `&s=${MEDIUM_AVATAR_SIZE}` : '';
  return `https://secure.gravatar.com/avatar/${md5(email.trim().toLowerCase())}?d=identicon${size}&version=${version}`;
}

/**
 * A user's avatar URL: an uploaded avatar ("U") through /avatar/{id}, which redirects to the
 * current file; any other on Gravatar.
 */
export function avatarUrl(user: AvatarRow, realmUrl: string, medium = false): string {
  if (user.avatarSource === 'U') return `${realmUrl}/avatar/${user.id}${medium ? '/medium' : ''}?version=${user.avatarVersion}`;
  return gravatarUrl(user.deliveryEmail, user.avatarVersion, medium);
}

/**
 * avatar_url of a User object: null when the client computes gravatars itself (client_gravatar)
 * and may see the address the gravatar is computed from. Bots with a gravatar are no exception,
 * as in the family (only its cross-realm bots have fixed pictures, which ours do not).
 */
export function avatarUrlField(
  user: AvatarRow,
  opts: { realmUrl: string; clientGravatar: boolean; emailPublic: boolean },
): string | null {
  if (user.avatarSource !== 'U' && opts.clientGravatar && opts.emailPublic) return null;
  return avatarUrl(user, opts.realmUrl);
}

/** A realm's square icon: its uploaded icon, else an identicon derived from its string id. */
export function realmIconUrl(realm: Pick<Realm, 'stringId' | 'iconUrl'>): string {
  if (realm.iconUrl) return realm.iconUrl;
  return `https://secure.gravatar.com/avatar/${md5(realm.stringId || 'root')}?d=identicon`;
}

/** "U" for an uploaded realm icon, "G" for the identicon. */
export function realmIconSource(realm: Pick<Realm, 'iconUrl'>): 'U' | 'G' {
  return realm.iconUrl ? 'U' : 'G';
}

/** Shown while a realm has no logo of its own; served by the uploads service. */
export const DEFAULT_REALM_LOGO_URL = '/user_avatars/default/realm/logo.svg?version=0';

type LogoRow = Pick<Realm, 'logoUrl' | 'nightLogoUrl'>;

/** The day or night logo: the uploaded one (its URL carries its version), else the default. */
export function realmLogoUrl(realm: LogoRow, night: boolean): string {
  return (night ? realm.nightLogoUrl : realm.logoUrl) ?? DEFAULT_REALM_LOGO_URL;
}

/** "U" for an uploaded logo, "D" for the default. */
export function realmLogoSource(realm: LogoRow, night: boolean): 'U' | 'D' {
  return (night ? realm.nightLogoUrl : realm.logoUrl) ? 'U' : 'D';
}

/** The `data` of a realm `update_dict` event for the `logo` or `night_logo` property. */
export function realmLogoData(realm: LogoRow, night: boolean): Record<string, string> {
  const prefix = night ? 'night_' : '';
  return { [`${prefix}logo_url`]: realmLogoUrl(realm, night), [`${prefix}logo_source`]: realmLogoSource(realm, night) };
}
