import { recordEvent } from '@chat/bus';
import { errors, checkOwner, type Actor } from '@chat/contracts';
import type { Tx } from '@chat/db';
import { realmPolicies } from '@chat/realm';
import { realmDomainObject, realmDomainsList } from '@chat/wire';
import type { Services } from '../context';
import { activeUserIds } from '../lib/audience';

/** GET /realm/domains: anyone of the realm may read them (they are in register too). */
export async function listRealmDomains(services: Services, actor: Actor) {
  return realmDomainsList(services.db, actor.realmId);
}

/** Why a domain name cannot be an organization's email domain, in the API family's words; null if it can. */
export function domainProblem(domain: string): string | null {
  if (!domain.length) return "Domain can't be empty.";
  if (!domain.includes('.')) return 'Domain must have at least one dot (.)';
  if (domain.length > 255) return 'Domain is too long';
  if (domain.startsWith('.') || domain.endsWith('.')) return 'Domain cannot start or end with a dot (.)';
  for (const label of domain.split('.')) {
    if (!label) return "Consecutive '.' are not allowed.";
    if (label.startsWith('-') || label.endsWith('-')) return "Subdomains cannot start or end with a '-'.";
    if (!/^[a-z0-9-]*$/.test(label)) return "Domain can only have letters, numbers, '.' and '-'s.";
  }
  return null;
}

async function announce(tx: Tx, realmId: number, event: Record<string, unknown>) {
  await recordEvent(tx, { realmId, type: 'realm_domains', users: await activeUserIds(tx, realmId), event: { type: 'realm_domains', ...event } });
}

/** The realm's row for `domain` as given in the path (matched exactly, as stored). */
async function accessRealmDomain(tx: Tx, realmId: number, domain: string) {
  const row = await tx.realmDomain.findUnique({ where: { realmId_domain: { realmId, domain } } });
  if (!row) throw errors.badRequest(`No entry found for domain ${domain}.`);
  return row;
}

/** POST /realm/domains: owners add a domain, lower-cased; answers [id, domain]. */
export async function doAddRealmDomain(services: Services, actor: Actor, read: () => { domain: string; allowSubdomains: boolean }) {
  checkOwner(actor);
  const input = read();
  const domain = input.domain.trim().toLowerCase();
  const problem = domainProblem(domain);
  if (problem) throw errors.badRequest(`Invalid domain: ${problem}`);
  return services.db.$transaction(async (tx) => {
    const taken = `The domain ${domain} is already a part of your organization.`;
    const inserted = await tx.$queryRawUnsafe<Array<{ id: number }>>(
      `INSERT INTO realm_domains (realm_id, domain, allow_subdomains) VALUES ($1, $2, $3)
       ON CONFLICT (realm_id, domain) DO NOTHING RETURNING id`,
      actor.realmId,
      domain,
      input.allowSubdomains,
    );
    if (!inserted.length) throw errors.badRequest(taken);
    await announce(tx, actor.realmId, { op: 'add', realm_domain: realmDomainObject({ domain, allowSubdomains: input.allowSubdomains }) });
    return [inserted[0]!.id, domain] as [number, string];
  });
}

/** PATCH /realm/domains/{domain}: owners change whether subdomains are allowed. */
export async function doChangeRealmDomain(services: Services, actor: Actor, domain: string, read: () => boolean) {
  checkOwner(actor);
  const allowSubdomains = read();
  await services.db.$transaction(async (tx) => {
    const row = await accessRealmDomain(tx, actor.realmId, domain);
    await tx.realmDomain.update({ where: { id: row.id }, data: { allowSubdomains } });
    await announce(tx, actor.realmId, { op: 'change', realm_domain: realmDomainObject({ domain: row.domain, allowSubdomains }) });
  });
}

/**
 * DELETE /realm/domains/{domain}. Removing the last domain also lifts emails_restricted_to_domains,
 * which would otherwise let nobody join (the API family does the same, with its realm event).
 */
export async function doRemoveRealmDomain(services: Services, actor: Actor, domain: string) {
  checkOwner(actor);
  await services.db.$transaction(async (tx) => {
    // The realm row lock orders this against PATCH /realm and other removals.
    await tx.$queryRawUnsafe('SELECT 1 FROM realms WHERE id = $1 FOR UPDATE', actor.realmId);
    const row = await accessRealmDomain(tx, actor.realmId, domain);
    await tx.realmDomain.delete({ where: { id: row.id } });
    const realm = await tx.realm.findUniqueOrThrow({ where: { id: actor.realmId }, select: { settings: true } });
    const remaining = await tx.realmDomain.count({ where: { realmId: actor.realmId } });
    if (remaining === 0 && realmPolicies(realm.settings).emails_restricted_to_domains) {
      const settings = { ...((realm.settings ?? {}) as Record<string, unknown>), emails_restricted_to_domains: false };
      await tx.realm.update({ where: { id: actor.realmId }, data: { settings } });
      await recordEvent(tx, {
        realmId: actor.realmId,
        type: 'realm',
        users: await activeUserIds(tx, actor.realmId),
        event: { type: 'realm', op: 'update', property: 'emails_restricted_to_domains', value: false },
      });
    }
    await announce(tx, actor.realmId, { op: 'remove', domain: row.domain });
  });
}
