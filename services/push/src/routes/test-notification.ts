import type { Router } from 'express';
import { endpoint } from '@chat/kit';
import type { Services } from '../context';
import { doSendTestNotification } from '../actions/test-notification';

export function testNotificationRoutes(router: Router, services: Services): void {
  router.post(
    '/mobile_push/e2ee/test_notification',
    endpoint(async ({ p, identity }) => {
      await doSendTestNotification(services, identity, p.int('device_id'));
    }),
  );
}
