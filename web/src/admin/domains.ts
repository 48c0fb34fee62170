/**
 * The organization's allowed email domains (register's realm_domains, kept by realm_domains
 * events): the requests that change them and how the family writes the list in one line.
 * The server checks a domain's form itself; its refusal is what the screen shows.
 */
export interface RealmDomain {
  domain: string;
  allow_subdomains: boolean;
}

/** As the server stores a domain: without surrounding spaces, lower-cased. */
export function normalizeDomain(text: string): string {
  return text.trim().toLowerCase();
}

/** The list by domain name, whatever order the events left it in. */
export function sortDomains(list: readonly RealmDomain[]): RealmDomain[] {
  return [...list].sort((a, b) => a.domain.localeCompare(b.domain));
}

/** The family's one-line summary: "*.example.com" where subdomains are allowed. */
export function domainsSummary(list: readonly RealmDomain[]): string {
  return sortDomains(list)
    .map((d) => (d.allow_subdomains ? `*.${d.domain}` : d.domain))
    .join(', ');
}

/** The path of one domain (PATCH and DELETE): the name as stored, escaped for a URL. */
export function domainPath(domain: string): string {
  return `/realm/domains/${encodeURIComponent(domain)}`;
}

export function addDomainParams(text: string, allowSubdomains: boolean): { domain: string; allow_subdomains: boolean } {
  return { domain: normalizeDomain(text), allow_subdomains: allowSubdomains };
}

/** Whether a domain typed is already listed (the server would refuse it; said before sending). */
export function isListed(list: readonly RealmDomain[], text: string): boolean {
  const domain = normalizeDomain(text);
  return list.some((d) => d.domain === domain);
}

/**
 * Removing the last domain while sign-ups are restricted to the list also lifts the restriction
 * (the server does it, or nobody could join): the screen says so before.
 */
export function removalLiftsRestriction(list: readonly RealmDomain[], restricted: boolean): boolean {
  return restricted && list.length === 1;
}
