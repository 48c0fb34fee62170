import { ROLE } from '@chat/contracts';

/** Values of the email_address_visibility user setting. */
export const EMAIL_VISIBILITY = { EVERYONE: 1, MEMBERS: 2, ADMINS: 3, NOBODY: 4, MODERATORS: 5 } as const;
export const EMAIL_VISIBILITY_VALUES: readonly number[] = Object.values(EMAIL_VISIBILITY);

/**
 * Whether a viewer of role `viewerRole` may read the real (delivery) address of a user whose
 * email_address_visibility is `visibility`. People always see their own address; bots' addresses
 * are not personal and are visible to all.
 */
export function canSeeDeliveryEmail(
  viewer: { id: number; role: number } | null,
  target: { id: number; isBot: boolean; visibility: number },
): boolean {
  if (!viewer) return false;
  if (viewer.id === target.id || target.isBot) return true;
  switch (target.visibility) {
    case EMAIL_VISIBILITY.EVERYONE:
      return true;
    case EMAIL_VISIBILITY.MEMBERS:
      return viewer.role <= ROLE.MEMBER;
    case EMAIL_VISIBILITY.MODERATORS:
      return viewer.role <= ROLE.MODERATOR;
    case EMAIL_VISIBILITY.ADMINS:
      return viewer.role <= ROLE.ADMINISTRATOR;
    default:
      return false;
  }
}

/** Host part of the API addresses of users whose real address is hidden. */
export function fakeEmailDomain(realmUrl: string): string {
  try {
    return new URL(realmUrl).hostname || 'chat.invalid';
  } catch {
    return 'chat.invalid';
  }
}

/**
 * The API address of a user: the real one when everyone may see it, otherwise a stable
 * placeholder that still works wherever the API takes an email.
 */
export function apiEmailFor(user: { id: number; isBot: boolean; deliveryEmail: string }, visibility: number, realmUrl: string): string {
  if (user.isBot || visibility === EMAIL_VISIBILITY.EVERYONE) return user.deliveryEmail;
  return `user${user.id}@${fakeEmailDomain(realmUrl)}`;
}

/** Loose address check, as strict as what mail servers accept in practice. */
export function isValidEmail(email: string): boolean {
  return email.length <= 254 && /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email);
}
