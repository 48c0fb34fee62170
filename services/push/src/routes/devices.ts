import type { Router } from 'express';
import { endpoint } from '@chat/kit';
import type { Services } from '../context';
import { checkRegisterPushDevice, doRegisterClientDevice, doRegisterPushDevice, doRemoveClientDevice } from '../actions/devices';

export function deviceRoutes(router: Router, services: Services): void {
  router.post(
    '/mobile_push/register',
    endpoint(async ({ p, identity }) => {
      const checked = checkRegisterPushDevice(services, identity, {
        deviceId: p.reqInt('device_id'),
        pushKey: p.str('push_key'),
        pushKeyId: p.int('push_key_id'),
        tokenKind: p.str('token_kind'),
        tokenId: p.str('token_id'),
        bouncerPublicKey: p.str('bouncer_public_key'),
        encryptedPushRegistration: p.str('encrypted_push_registration'),
      });
      await doRegisterPushDevice(services, identity, checked);
    }),
  );
  router.post(
    '/register_client_device',
    endpoint(async ({ identity }) => ({ device_id: await doRegisterClientDevice(services, identity) })),
  );
  router.post(
    '/remove_client_device',
    endpoint(async ({ p, identity }) => {
      await doRemoveClientDevice(services, identity, p.reqInt('device_id'));
    }),
  );
}
