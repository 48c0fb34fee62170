import { checkNotBot, errors, type Actor } from '@chat/contracts';
import type { Services } from '../context';
import { RelayError } from '../lib/relay';
import { activeDevices, doPushToDevices } from './delivery';
import { legacyTestPayloads, legacyTokens, pushToLegacyTokens } from '../lib/legacy';
import { registeredLegacyTokens } from './legacy-registration';

/**
 * Sends an encrypted test notification now, to one device or to all of the user's devices
 * that the relay accepted, and reports relay failures to the caller instead of retrying: the
 * person testing wants to know whether push works right now.
 */
export async function doSendTestNotification(services: Services, actor: Actor, deviceId: number | undefined): Promise<void> {
  checkNotBot(actor);
  const devices = await activeDevices(services.db, actor.userId, deviceId);
  if (!devices.length) throw errors.noActivePushDevice();
  if (!services.relay) throw errors.pushServiceNotConfigured();
  const realm = await services.realms.get(actor.realmId);
  const payload = { ...realm, time: Math.floor(Date.now() / 1000), type: 'test', user_id: actor.userId };
  let reached: number;
  try {
    reached = await doPushToDevices(services, services.relay, actor, devices, payload, 'alert');
  } catch (err) {
    if (err instanceof RelayError) {
      services.log.warn({ err, userId: actor.userId }, 'test push notification failed');
      throw err.toApiError();
    }
    throw err;
  }
  // The relay told us every one of these devices is gone (app uninstalled, token expired).
  if (reached === 0) throw errors.noActivePushDevice();
}

/**
 * The deprecated test notification for legacy tokens: to the caller's token named by `token`
 * (any kind; `Device not recognized` when it is not one of theirs), or to all of them. As in
 * the reference server, a user without legacy tokens gets a success with nothing sent. Sent now
 * through the relay's legacy notify, relay failures reported as for the E2EE test; a token the
 * relay does not hold (or that the provider refused) answers `Device not recognized by the push
 * bouncer`, after the others got their notification, and is forgotten here.
 */
export async function doSendLegacyTestNotification(services: Services, actor: Actor, token: string | undefined): Promise<void> {
  checkNotBot(actor);
  let tokens = await legacyTokens(services.db, actor.userId);
  if (token !== undefined) {
    tokens = tokens.filter((t) => t.token === token);
    if (!tokens.length) throw errors.invalidPushDeviceToken();
  }
  if (!tokens.length) return;
  if (!services.relay) throw errors.pushServiceNotConfigured();
  const relay = services.relay;
  const target = { realmId: actor.realmId, userId: actor.userId };
  const realm = await services.realms.get(actor.realmId);
  const payloads = legacyTestPayloads({ ...target, realm, server: services.config.EXTERNAL_HOST }, Math.floor(Date.now() / 1000));
  let reached: number;
  try {
    // A token whose relay registration is still pending is registered first, as for messages.
    reached = await pushToLegacyTokens(services, relay, target, await registeredLegacyTokens(services, relay, target, tokens), payloads);
  } catch (err) {
    if (err instanceof RelayError) {
      services.log.warn({ err, userId: actor.userId }, 'legacy test push notification failed');
      throw err.toApiError();
    }
    throw err;
  }
  if (reached < tokens.length) throw errors.invalidRemotePushDeviceToken();
}
