import type { Router } from 'express';
import { endpoint } from '@chat/kit';
import type { Services } from '../context';
import { checkAppId, checkLegacyToken, doAddLegacyToken, doRemoveLegacyToken } from '../actions/legacy-tokens';

/** Deprecated since E2EE registration (feature level 406); kept for older clients. */
export function legacyTokenRoutes(router: Router, services: Services): void {
  router.post(
    '/users/me/apns_device_token',
    endpoint(async ({ p, identity }) => {
      const token = p.reqStr('token');
      const appId = p.reqStr('appid');
      checkLegacyToken(identity, token, 'apns');
      checkAppId(appId);
      await doAddLegacyToken(services, identity, token, 'apns', appId);
    }),
  );
  router.delete(
    '/users/me/apns_device_token',
    endpoint(async ({ p, identity }) => {
      const token = p.reqStr('token');
      checkLegacyToken(identity, token, 'apns');
      await doRemoveLegacyToken(services, identity, token, 'apns');
    }),
  );
  router.post(
    '/users/me/android_gcm_reg_id',
    endpoint(async ({ p, identity }) => {
      const token = p.reqStr('token');
      checkLegacyToken(identity, token, 'fcm');
      await doAddLegacyToken(services, identity, token, 'fcm', null);
    }),
  );
  router.delete(
    '/users/me/android_gcm_reg_id',
    endpoint(async ({ p, identity }) => {
      const token = p.reqStr('token');
      checkLegacyToken(identity, token, 'fcm');
      await doRemoveLegacyToken(services, identity, token, 'fcm');
    }),
  );
}
