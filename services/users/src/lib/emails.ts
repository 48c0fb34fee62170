import { fakeEmailDomain } from '@chat/realm';
import { EMAIL_VISIBILITY } from '@chat/wire';

// Who may see a real address decides the User object's delivery_email: one rule, in @chat/wire.
export { canSeeDeliveryEmail, EMAIL_VISIBILITY } from '@chat/wire';
export const EMAIL_VISIBILITY_VALUES: readonly number[] = Object.values(EMAIL_VISIBILITY);

/** Host part of the API addresses of users whose real address is hidden. */
export { fakeEmailDomain };

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
