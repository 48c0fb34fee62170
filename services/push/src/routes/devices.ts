import type { Router } from 'express';
import { actorFromIdentity } from '@chat/contracts';
import { endpoint } from '@chat/kit';
import type { Services } from '../context';
import { checkRegisterPushDevice, doRegisterClientDevice, doRegisterPushDevice, doRemoveClientDevice } from '../actions/devices';

export function deviceRoutes(router: Router, services: Services): void {
  router.post(
    '/mobile_push/register',
    endpoint(async ({ p, identity }) => {
      const actor = actorFromIdentity(identity);
      const checked = checkRegisterPushDevice(services, actor, {
        deviceId: p.reqInt('device_id'),
        pushKey: p.str('push_key'),
        pushKeyId: p.int('push_key_id'),
        tokenKind: p.str('token_kind'),
        tokenId: p.str('token_id'),
        bouncerPublicKey: p.str('bouncer_public_key'),
        encryptedPushRegistration: p.str('encrypted_push_registration'),
      });
      await doRegisterPushDevice(services, actor, checked);
    }),
  );
  router.post(
    '/register_client_device',
    endpoint(async ({ identity }) => ({ device_id: await doRegisterClientDevice(services, actorFromIdentity(identity)) })),
  );
  router.post(
    '/remove_client_device',
    endpoint(async ({ p, identity }) => {
      const actor = actorFromIdentity(identity);
      await doRemoveClientDevice(services, actor, p.reqInt('device_id'));
    }),
  );
}
