import type { Router } from 'express';
import { endpoint } from '@chat/kit';
import type { Services } from '../context';
import { fetchApiKeyWithJwt } from '../actions/jwt';
import { devFetchApiKey, devListUsers } from '../actions/dev-auth';
import { fetchApiKeyWithPassword } from '../actions/password-login';

/** Ways to obtain an API key without one (routes the gateway forwards unauthenticated). */
export function authRoutes(router: Router, services: Services): void {
  router.post(
    '/jwt/fetch_api_key',
    endpoint(
      ({ p, identity }) => fetchApiKeyWithJwt(services, identity, p.str('token') ?? '', p.bool('include_profile', false)),
      { auth: 'optional' },
    ),
  );
  router.post(
    '/fetch_api_key',
    endpoint(({ p, identity, req }) => fetchApiKeyWithPassword(services, identity, p.reqStr('username'), p.reqStr('password'), req.get('user-agent') ?? ''), {
      auth: 'optional',
    }),
  );
  router.post(
    '/dev_fetch_api_key',
    endpoint(({ p, identity }) => devFetchApiKey(services, identity, p.reqStr('username')), { auth: 'optional' }),
  );
  router.get(
    '/dev_list_users',
    endpoint(({ identity }) => devListUsers(services, identity), { auth: 'optional' }),
  );
}
