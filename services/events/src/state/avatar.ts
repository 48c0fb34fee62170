import { createHash } from 'node:crypto';

export interface AvatarUser {
  id: number;
  deliveryEmail: string;
  avatarSource: string;
  avatarVersion: number;
  settings: unknown;
}

export function gravatarUrl(email: string, version: number): string {
  const hash = createHash('md5').update(email.trim().toLowerCase()).digest('hex');
  return `https://secure.gravatar.com/avatar/${hash}?d=identicon&version=${version}`;
}

/** Email visible to everyone in the realm (email_address_visibility 1). */
export function emailVisibleToAll(u: { settings: unknown }): boolean {
  return Number((u.settings as Record<string, unknown> | null)?.email_address_visibility ?? 1) === 1;
}

/**
 * avatar_url as clients of this API expect it: null when the client computes gravatars
 * itself (client_gravatar) and may see the address the gravatar is computed from.
 */
export function avatarUrl(u: AvatarUser, realmUrl: string, clientGravatar: boolean): string | null {
  if (u.avatarSource === 'U') return `${realmUrl}/avatar/${u.id}?version=${u.avatarVersion}`;
  if (clientGravatar && emailVisibleToAll(u)) return null;
  return gravatarUrl(u.deliveryEmail, u.avatarVersion);
}
