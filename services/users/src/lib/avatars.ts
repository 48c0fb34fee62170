import { createHash } from 'node:crypto';

/**
 * Avatar URL of a user. Gravatar (source "G") URLs are left for the client to compute when it
 * says it can (client_gravatar) and the address is public; uploaded avatars ("U") are served by
 * the uploads service through /avatar/{id}.
 */
export function avatarUrl(
  user: { id: number; deliveryEmail: string; avatarSource: string; avatarVersion: number; isBot: boolean },
  opts: { realmUrl: string; clientGravatar: boolean; emailPublic: boolean; medium?: boolean },
): string | null {
  if (user.avatarSource === 'U') {
    return `${opts.realmUrl}/avatar/${user.id}${opts.medium ? '/medium' : ''}?version=${user.avatarVersion}`;
  }
  if (opts.clientGravatar && opts.emailPublic && !user.isBot) return null;
  const hash = createHash('md5').update(user.deliveryEmail.toLowerCase()).digest('hex');
  return `https://secure.gravatar.com/avatar/${hash}?d=identicon${opts.medium ? '&s=500' : ''}&version=${user.avatarVersion}`;
}
