import type { Router } from 'express';
import { endpoint } from '@chat/kit';
import { doRegister, parseRegister, type RegisterDeps } from '../actions/register';

export function registerRoutes(router: Router, deps: RegisterDeps): void {
  router.post(
    '/register',
    endpoint(
      async ({ p, identity, req }) => {
        const request = parseRegister(p, identity, req.get('user-agent'));
        return doRegister(deps, identity, request);
      },
      { auth: 'optional' },
    ),
  );
}
