import type { Router } from 'express';
import { endpoint } from '@chat/kit';
import { doRegister } from '../actions/register';
import { parseRegister } from './register-params';
import type { Services } from '../context';

export function registerRoutes(router: Router, services: Services): void {
  router.post(
    '/register',
    endpoint(
      async ({ p, identity, req }) => {
        const request = parseRegister(p, identity, req.get('user-agent'));
        return doRegister(services, identity, request);
      },
      { auth: 'optional' },
    ),
  );
}
