import { isValidEmail } from './emails';

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

let disposable: { exact: Set<string>; wildcard: Set<string> } | undefined;

/**
 * The published list of throwaway-mailbox domains (a JSON package without types), loaded on
 * first use: it holds over a hundred thousand names.
 */
function disposableDomains() {
  if (!disposable) {
    const exact = require('disposable-email-domains') as string[];
    const wildcard = require('disposable-email-domains/wildcard.json') as string[];
    disposable = { exact: new Set(exact), wildcard: new Set(wildcard) };
  }
  return disposable;
}

export function isDisposableDomain(domain: string): boolean {
  const { exact, wildcard } = disposableDomains();
  const name = domain.toLowerCase();
  if (exact.has(name)) return true;
  const labels = name.split('.');
  for (let i = 1; i < labels.length - 1; i++) if (wildcard.has(labels.slice(i).join('.'))) return true;
  return wildcard.has(name);
}

/** Why an address cannot be invited to a realm with these policies, in the API's words; null if it can. */
export function inviteeEmailProblem(email: string, policies: { disallow_disposable_email_addresses?: unknown }): string | null {
  if (!isValidEmail(email)) return 'Invalid address.';
  const domain = email.slice(email.lastIndexOf('@') + 1);
  if (policies.disallow_disposable_email_addresses !== false && isDisposableDomain(domain)) return 'Please use your real email address.';
  return null;
}
