import type { User } from '@chat/db';
import { avatarUrl as wireAvatarUrl, avatarUrlField } from '@chat/wire';

/**
 * Avatar URL of a user, as the User object gives it (one definition, in @chat/wire): null when
 * the client computes a public gravatar itself (client_gravatar), otherwise uploaded avatars
 * ("U") through /avatar/{id} and others on Gravatar; `medium` for the larger size.
 */
export function avatarUrl(
  user: Pick<User, 'id' | 'deliveryEmail' | 'avatarSource' | 'avatarVersion' | 'isBot'>,
  opts: { realmUrl: string; clientGravatar: boolean; emailPublic: boolean; medium?: boolean },
): string | null {
  const url = avatarUrlField(user, opts);
  return url !== null && opts.medium ? wireAvatarUrl(user, opts.realmUrl, true) : url;
}
