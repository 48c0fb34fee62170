import { isValidEmail } from './emails';
import { INVITE_TEXTS, type EmailRefusal } from './email-policy';

export { isDisposableDomain } from './email-policy';

/**
 * The addresses of an invitation request: separated by commas or newlines, each either bare or
 * as `Name <address>`, trimmed; repeats count once. An empty piece stays (and is reported as an
 * invalid address) rather than vanishing, so a typo never goes unnoticed.
 */
export function parseInviteeEmails(raw: string): string[] {
  const emails = new Set<string>();
  for (const piece of raw.split(/[,\n]/)) {
    const named = /<(.*)>/.exec(piece);
    emails.add((named ? named[1]! : piece).trim());
  }
  return [...emails];
}

/** Why an address cannot be invited, in the API's words; null if it can. `refusal` is the realm's rule (realmEmailValidator). */
export function inviteeEmailProblem(email: string, refusal: (email: string) => EmailRefusal | null): string | null {
  if (!isValidEmail(email)) return 'Invalid address.';
  const why = refusal(email);
  return why ? INVITE_TEXTS[why](email) : null;
}
