import type { Router } from 'express';
import { actorFromIdentity } from '@chat/contracts';
import { endpoint } from '@chat/kit';
import type { Services } from '../context';
import { checkAppId, checkLegacyToken, doAddLegacyToken, doRemoveLegacyToken } from '../actions/legacy-tokens';

/** Deprecated since E2EE registration (feature level 406); kept for older clients. */
export function legacyTokenRoutes(router: Router, services: Services): void {
  router.post(
    '/users/me/apns_device_token',
    endpoint(async ({ p, identity }) => {
      const actor = actorFromIdentity(identity);
      const token = p.reqStr('token');
      const appId = p.reqStr('appid');
      checkLegacyToken(actor, token, 'apns');
      checkAppId(appId);
      await doAddLegacyToken(services, actor, token, 'apns', appId);
    }),
  );
  router.delete(
    '/users/me/apns_device_token',
    endpoint(async ({ p, identity }) => {
      const actor = actorFromIdentity(identity);
      const token = p.reqStr('token');
      checkLegacyToken(actor, token, 'apns');
      await doRemoveLegacyToken(services, actor, token, 'apns');
    }),
  );
  router.post(
    '/users/me/android_gcm_reg_id',
    endpoint(async ({ p, identity }) => {
      const actor = actorFromIdentity(identity);
      const token = p.reqStr('token');
      checkLegacyToken(actor, token, 'fcm');
      await doAddLegacyToken(services, actor, token, 'fcm', null);
    }),
  );
  router.delete(
    '/users/me/android_gcm_reg_id',
    endpoint(async ({ p, identity }) => {
      const actor = actorFromIdentity(identity);
      const token = p.reqStr('token');
      checkLegacyToken(actor, token, 'fcm');
      await doRemoveLegacyToken(services, actor, token, 'fcm');
    }),
  );
}
