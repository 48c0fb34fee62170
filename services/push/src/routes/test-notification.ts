import type { Router } from 'express';
import { endpoint } from '@chat/kit';
import type { Services } from '../context';
import { doSendLegacyTestNotification, doSendTestNotification } from '../actions/test-notification';

export function testNotificationRoutes(router: Router, services: Services): void {
  router.post(
    '/mobile_push/e2ee/test_notification',
    endpoint(async ({ p, identity }) => {
      await doSendTestNotification(services, identity, p.int('device_id'));
    }),
  );
  // Deprecated (feature level 420) in favour of the E2EE test; for legacy APNs/FCM tokens.
  router.post(
    '/mobile_push/test_notification',
    endpoint(async ({ p, identity }) => {
      await doSendLegacyTestNotification(services, identity, p.str('token'));
    }),
  );
}
