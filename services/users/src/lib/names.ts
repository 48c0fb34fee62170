import { errors } from '@chat/contracts';

export const MAX_NAME_LENGTH = 100;

/** The family's shortest name: one character is refused, as an empty name is. */
export const MIN_NAME_LENGTH = 2;

/** A display name as people may set it: trimmed, 2..100 characters (code points), no control characters. */
export function checkFullName(raw: string): string {
  const name = raw.trim();
  const length = [...name].length;
  if (length > MAX_NAME_LENGTH) throw errors.badRequest('Name too long!');
  if (length < MIN_NAME_LENGTH) throw errors.badRequest('Name too short!');
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f*`\\>"@]/.test(name)) throw errors.badRequest('Invalid characters in name!');
  // A trailing |123 would be ambiguous with the mention syntax for people with equal names.
  if (/\|\d+$/.test(raw)) throw errors.badRequest('Invalid format!');
  return name;
}
