import type { Router } from 'express';
import { errors, actorFromIdentity } from '@chat/contracts';
import { endpoint, type Params } from '@chat/kit';
import type { Services } from '../context';
import { doMuteUser, doUnmuteUser } from '../actions/muted-users';
import { doAddRealmDomain, doChangeRealmDomain, doRemoveRealmDomain, listRealmDomains } from '../actions/realm-domains';

function reqBool(p: Params, name: string): boolean {
  const value = p.bool(name);
  if (value === undefined) throw errors.missingArgument(name);
  return value;
}

/** Muting users (/users/me/muted_users/...) and the organization's email domains (/realm/domains...). */
export function mutesAndDomainsRoutes(router: Router, services: Services): void {
  router.post(
    '/users/me/muted_users/:muted_user_id',
    endpoint(async ({ p, identity }) => {
      await doMuteUser(services, actorFromIdentity(identity), p.pathInt('muted_user_id'));
    }),
  );
  router.delete(
    '/users/me/muted_users/:muted_user_id',
    endpoint(async ({ p, identity }) => {
      await doUnmuteUser(services, actorFromIdentity(identity), p.pathInt('muted_user_id'));
    }),
  );

  router.get('/realm/domains', endpoint(async ({ identity }) => ({ domains: await listRealmDomains(services, actorFromIdentity(identity)) })));
  router.post(
    '/realm/domains',
    endpoint(async ({ p, identity }) => ({
      new_domain: await doAddRealmDomain(services, actorFromIdentity(identity), () => ({ domain: p.reqStr('domain'), allowSubdomains: reqBool(p, 'allow_subdomains') })),
    })),
  );
  router.patch(
    '/realm/domains/:domain',
    endpoint(async ({ p, identity }) => {
      await doChangeRealmDomain(services, actorFromIdentity(identity), p.pathStr('domain'), () => reqBool(p, 'allow_subdomains'));
    }),
  );
  router.delete(
    '/realm/domains/:domain',
    endpoint(async ({ p, identity }) => {
      await doRemoveRealmDomain(services, actorFromIdentity(identity), p.pathStr('domain'));
    }),
  );
}
