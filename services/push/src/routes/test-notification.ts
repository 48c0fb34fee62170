import type { Router } from 'express';
import { actorFromIdentity } from '@chat/contracts';
import { endpoint } from '@chat/kit';
import type { Services } from '../context';
import { doSendLegacyTestNotification, doSendTestNotification } from '../actions/test-notification';

export function testNotificationRoutes(router: Router, services: Services): void {
  router.post(
    '/mobile_push/e2ee/test_notification',
    endpoint(async ({ p, identity }) => {
      const actor = actorFromIdentity(identity);
      await doSendTestNotification(services, actor, p.int('device_id'));
    }),
  );
  // Deprecated (feature level 420) in favour of the E2EE test; for legacy APNs/FCM tokens.
  router.post(
    '/mobile_push/test_notification',
    endpoint(async ({ p, identity }) => {
      const actor = actorFromIdentity(identity);
      await doSendLegacyTestNotification(services, actor, p.str('token'));
    }),
  );
}
