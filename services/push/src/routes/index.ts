import type { Router } from 'express';
import type { Services } from '../context';
import { deviceRoutes } from './devices';
import { legacyTokenRoutes } from './legacy-tokens';
import { testNotificationRoutes } from './test-notification';

/** Every route below /api/v1 this service owns (see API_ROUTES in packages/contracts). */
export function apiRoutes(router: Router, services: Services): void {
  deviceRoutes(router, services);
  legacyTokenRoutes(router, services);
  testNotificationRoutes(router, services);
}
