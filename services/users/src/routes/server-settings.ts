import type { Router } from 'express';
import { endpoint } from '@chat/kit';
import type { Services } from '../context';
import { getServerSettings } from '../actions/server-settings';

export function serverSettingsRoutes(router: Router, services: Services): void {
  router.get(
    '/server_settings',
    endpoint(({ identity }) => getServerSettings(services, identity), { auth: 'optional' }),
  );
}
