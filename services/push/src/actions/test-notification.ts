import { errors } from '@chat/contracts';
import type { AuthedIdentity } from '@chat/kit';
import type { Services } from '../context';
import { RelayError } from '../lib/relay';
import { activeDevices, pushToDevices } from '../delivery/send';

/**
 * Sends an encrypted test notification now, to one device or to all of the user's devices
 * that the relay accepted, and reports relay failures to the caller instead of retrying: the
 * person testing wants to know whether push works right now.
 */
export async function doSendTestNotification(services: Services, identity: AuthedIdentity, deviceId: number | undefined): Promise<void> {
  if (identity.isBot) throw errors.botsNotAllowed();
  const devices = await activeDevices(services.db, identity.userId, deviceId);
  if (!devices.length) throw errors.noActivePushDevice();
  if (!services.relay) throw errors.pushServiceNotConfigured();
  const realm = await services.realms.get(identity.realmId);
  const payload = { ...realm, time: Math.floor(Date.now() / 1000), type: 'test', user_id: identity.userId };
  let reached: number;
  try {
    reached = await pushToDevices(services, services.relay, identity, devices, payload, 'alert');
  } catch (err) {
    if (err instanceof RelayError) {
      services.log.warn({ err, userId: identity.userId }, 'test push notification failed');
      throw err.toApiError();
    }
    throw err;
  }
  // The relay told us every one of these devices is gone (app uninstalled, token expired).
  if (reached === 0) throw errors.noActivePushDevice();
}
