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
 * and may see the address a person's gravatar is computed from; always a URL for bots.
 */
export function avatarUrlField(
  user: AvatarRow & Pick<User, 'isBot'>,
  opts: { realmUrl: string; clientGravatar: boolean; emailPublic: boolean },
): string | null {
  if (user.avatarSource !== 'U' && opts.clientGravatar && opts.emailPublic && !user.isBot) return null;
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
