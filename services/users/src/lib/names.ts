import { errors } from '@chat/contracts';

export const MAX_NAME_LENGTH = 100;

/** A display name as people may set it: trimmed, 1..100 characters, no control characters. */
export function checkFullName(raw: string): string {
  const name = raw.trim();
  if (name.length > MAX_NAME_LENGTH) throw errors.badRequest('Name too long!');
  if (name.length === 0) throw errors.badRequest('Name must not be empty!');
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f*`\\>"@]/.test(name)) throw errors.badRequest('Invalid characters in name!');
  // A trailing |123 would be ambiguous with the mention syntax for people with equal names.
  if (/\|\d+$/.test(raw)) throw errors.badRequest('Invalid format!');
  return name;
}
