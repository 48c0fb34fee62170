import { errors } from '@chat/contracts';
import type { Db, Tx } from '@chat/db';
import { realmPolicies } from '@chat/realm';

let disposable: { exact: Set<string>; wildcard: Set<string> } | undefined;

/**
 * The published list of throwaway-mailbox domains (a JSON package without types), loaded on
 * first use: it holds over a hundred thousand names.
 */
function disposableDomains() {
  if (!disposable) {
    /* eslint-disable @typescript-eslint/no-require-imports -- loaded lazily, untyped JSON */
    const exact = require('disposable-email-domains') as string[];
    const wildcard = require('disposable-email-domains/wildcard.json') as string[];
    /* eslint-enable @typescript-eslint/no-require-imports */
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

/** Why a realm refuses an address: outside its domains, a throwaway mailbox, or a `+` alias. */
export type EmailRefusal = 'domain' | 'disposable' | 'plus';

/** The words each way of joining uses for a refusal, as the API family words them there. */
export type EmailRefusalTexts = Record<EmailRefusal, (email: string) => string>;

/** POST /users, an administrator creating an account. */
export const CREATE_USER_TEXTS: EmailRefusalTexts = {
  domain: (email) => `Email '${email}' not allowed in this organization`,
  disposable: () => 'Disposable email addresses are not allowed in this organization',
  plus: () => 'Email addresses containing + are not allowed.',
};

/** Signing up through an invitation. */
export const SIGNUP_TEXTS: EmailRefusalTexts = {
  domain: (email) =>
    `Your email address, ${email}, is not in one of the domains that are allowed to register for accounts in this organization.`,
  disposable: () => 'Please use your real email address.',
  plus: () => 'Email addresses containing + are not allowed in this organization.',
};

/** One entry of an email invitation's list. */
export const INVITE_TEXTS: EmailRefusalTexts = {
  domain: () => 'Outside your domain.',
  disposable: () => 'Please use your real email address.',
  plus: () => 'Email addresses containing + are not allowed.',
};

/**
 * Which addresses the realm lets join, read once for a whole list of them. With
 * emails_restricted_to_domains, only addresses of the realm's domains (or, where a domain allows
 * it, of its subdomains), without `+`; the disposable check is then moot, the list being the
 * realm's own. Otherwise only throwaway mailboxes are refused, when the realm says so.
 */
export async function realmEmailValidator(db: Db | Tx, realmId: number): Promise<(email: string) => EmailRefusal | null> {
  const realm = await db.realm.findUniqueOrThrow({ where: { id: realmId }, select: { settings: true } });
  const policies = realmPolicies(realm.settings);
  if (!policies.emails_restricted_to_domains) {
    const disallowDisposable = policies.disallow_disposable_email_addresses !== false;
    return (email) => (disallowDisposable && isDisposableDomain(domainOf(email)) ? 'disposable' : null);
  }
  const rows = await db.realmDomain.findMany({ where: { realmId }, select: { domain: true, allowSubdomains: true } });
  const exact = new Set(rows.map((r) => r.domain));
  const withSubdomains = new Set(rows.filter((r) => r.allowSubdomains).map((r) => r.domain));
  return (email) => {
    const at = email.lastIndexOf('@');
    if (email.slice(0, at).includes('+')) return 'plus';
    let domain = domainOf(email);
    if (exact.has(domain)) return null;
    // a.b.example.com is allowed by example.com or b.example.com with allow_subdomains.
    for (let dot = domain.indexOf('.'); dot !== -1; dot = domain.indexOf('.')) {
      domain = domain.slice(dot + 1);
      if (withSubdomains.has(domain)) return null;
    }
    return 'domain';
  };
}

function domainOf(email: string): string {
  return email.slice(email.lastIndexOf('@') + 1).toLowerCase();
}

/** Throws the refusal, in `texts`' words, when the realm does not let `email` join. */
export async function checkEmailAllowedForRealm(db: Db | Tx, realmId: number, email: string, texts: EmailRefusalTexts): Promise<void> {
  const refusal = (await realmEmailValidator(db, realmId))(email);
  if (refusal) throw errors.badRequest(texts[refusal](email));
}
