import type { TestRelay } from './relay-server';
import { registryKey } from './relay-server';
import {
  allowedOnly,
  checkAppId,
  checkLegacyToken,
  checkPushRequest,
  checkTokenId,
  checkUuid4,
  jsonInt,
  openRegistration,
  optStr,
  Refusal,
  ShapeError,
  str,
  type Fields,
} from './relay-shapes';

/**
 * The test relay's push endpoints, as the family's relay views check and answer them. Each
 * checks the request's shape at once and returns the success answer, which applies the relay's
 * state (it runs only when the test has not scripted a failure).
 */

type Answer = () => Record<string, unknown>;

/** Who a legacy request is about. Our server always names the person by id and UUID, and the organization. */
function legacyPerson(relay: TestRelay, f: Fields): { userId: number; userUuid: string; realmUuid: string } {
  const userId = jsonInt(f, 'user_id')!;
  const userUuid = str(f, 'user_uuid');
  const realmUuid = str(f, 'realm_uuid');
  checkUuid4(userUuid, 'user_uuid');
  checkUuid4(realmUuid, 'realm_uuid');
  const seen = [...relay.legacyRegistry.values()].find((r) => r.user_id === userId);
  if (seen && seen.user_uuid !== userUuid) throw new ShapeError(`user ${userId} sent with another user_uuid than before`);
  return { userId, userUuid, realmUuid };
}

function optionalKnownRealm(relay: TestRelay, server: string, realmUuid: string): void {
  // The relay only logs an organization it does not know on the legacy endpoints; a mismatch refuses.
  relay.knownRealm(server, realmUuid);
}

export function legacyRegister(relay: TestRelay, f: Fields, server: string): Answer {
  allowedOnly('push/register', f, ['user_id', 'user_uuid', 'realm_uuid', 'token', 'token_kind', 'ios_app_id']);
  const who = legacyPerson(relay, f);
  const token = str(f, 'token');
  const kind = jsonInt(f, 'token_kind')!;
  checkLegacyToken(token, kind);
  const appId = optStr(f, 'ios_app_id');
  if (kind === 1 && appId === undefined) throw new ShapeError('Missing ios_app_id');
  checkAppId(appId);
  return () => {
    optionalKnownRealm(relay, server, who.realmUuid);
    // Registering again is harmless: the record is replaced.
    relay.legacyRegistry.set(registryKey(who.userId, kind, token), {
      user_id: who.userId,
      user_uuid: who.userUuid,
      token_kind: kind,
      token,
      ...(appId !== undefined ? { ios_app_id: appId } : {}),
    });
    return {};
  };
}

export function legacyUnregister(relay: TestRelay, f: Fields, server: string): Answer {
  allowedOnly('push/unregister', f, ['user_id', 'user_uuid', 'realm_uuid', 'token', 'token_kind']);
  const who = legacyPerson(relay, f);
  const token = str(f, 'token');
  const kind = jsonInt(f, 'token_kind')!;
  checkLegacyToken(token, kind);
  return () => {
    optionalKnownRealm(relay, server, who.realmUuid);
    if (!relay.legacyRegistry.delete(registryKey(who.userId, kind, token))) throw new Refusal('Token does not exist');
    return {};
  };
}

export function legacyUnregisterAll(relay: TestRelay, f: Fields, server: string): Answer {
  allowedOnly('push/unregister/all', f, ['user_id', 'user_uuid', 'realm_uuid']);
  const who = legacyPerson(relay, f);
  return () => {
    optionalKnownRealm(relay, server, who.realmUuid);
    for (const [k, r] of relay.legacyRegistry) if (r.user_id === who.userId) relay.legacyRegistry.delete(k);
    return {};
  };
}

const stringList = (v: unknown, name: string): string[] => {
  if (!Array.isArray(v) || v.some((t) => typeof t !== 'string')) throw new ShapeError(`${name} is not a list of strings`);
  return v as string[];
};
const dict = (v: unknown, name: string): Record<string, unknown> => {
  if (!v || typeof v !== 'object' || Array.isArray(v)) throw new ShapeError(`${name} is not a dict`);
  return v as Record<string, unknown>;
};

/** `remote_server_notify_push` (legacy tokens; one JSON document). */
export function legacyNotify(relay: TestRelay, body: Record<string, any>, server: string): Answer {
  allowedOnly('push/notify', body, ['user_id', 'user_uuid', 'realm_uuid', 'gcm_payload', 'apns_payload', 'gcm_options', 'android_devices', 'apple_devices']);
  if (!Number.isInteger(body.user_id)) throw new ShapeError('user_id is not an integer');
  if (typeof body.user_uuid !== 'string' || typeof body.realm_uuid !== 'string') throw new ShapeError('user_uuid and realm_uuid must be strings');
  checkUuid4(body.user_uuid, 'user_uuid');
  const payloads = { fcm: dict(body.gcm_payload, 'gcm_payload'), apns: dict(body.apns_payload, 'apns_payload') };
  dict(body.gcm_options, 'gcm_options');
  const lists = { fcm: stringList(body.android_devices, 'android_devices'), apns: stringList(body.apple_devices, 'apple_devices') };
  return () => {
    optionalKnownRealm(relay, server, body.realm_uuid);
    checkPushAllowed(relay);
    const refused = relay.okExtras().deletedDevices ?? { android_devices: [], apple_devices: [] };
    const handle = (kind: 'apns' | 'fcm', refusedHere: string[]) => {
      const deleted: string[] = [];
      let sent = 0;
      for (const token of lists[kind]) {
        const key = registryKey(body.user_id, kind === 'apns' ? 1 : 2, token);
        if (!relay.legacyRegistry.has(key) || refusedHere.includes(token)) {
          relay.legacyRegistry.delete(key);
          deleted.push(token);
          continue;
        }
        relay.legacyDeliveries.push({ user_id: body.user_id, kind, token, payload: payloads[kind] });
        sent++;
      }
      return { sent, deleted };
    };
    const android = handle('fcm', refused.android_devices);
    const apple = handle('apns', refused.apple_devices);
    return {
      total_android_devices: android.sent,
      total_apple_devices: apple.sent,
      deleted_devices: { android_devices: android.deleted, apple_devices: apple.deleted },
    };
  };
}

/** The relay's answer when its operator's plan does not cover this server's pushes. */
function checkPushAllowed(relay: TestRelay): void {
  if (relay.pushDisallowed === undefined) return;
  throw new Refusal(
    `Your plan doesn't allow sending push notifications. Reason provided by the server: ${relay.pushDisallowed}`,
    400,
    'PUSH_NOTIFICATIONS_DISALLOWED',
  );
}

function missingRealm(): Refusal {
  return new Refusal('Organization not registered', 403, 'MISSING_REMOTE_REALM');
}

/** `register_remote_push_device_for_e2ee_push_notification` (feature level 468: keyed by token_id). */
export function e2eeRegister(relay: TestRelay, f: Fields, server: string): Answer {
  allowedOnly('push/e2ee/register', f, ['realm_uuid', 'token_id', 'encrypted_push_registration', 'bouncer_public_key']);
  const realmUuid = str(f, 'realm_uuid');
  checkTokenId(str(f, 'token_id'));
  return () => {
    if (!relay.knownRealm(server, realmUuid)) throw missingRealm();
    const { registration, tokenId } = openRegistration(f);
    relay.e2eeDevices.set(`${realmUuid}:${tokenId}`, {
      realmUuid,
      tokenId,
      kind: registration.token_kind,
      token: registration.token,
      iosAppId: registration.ios_app_id,
      expired: false,
    });
    return {};
  };
}

/** `remote_server_notify_push_e2ee`: one JSON document, `{realm_uuid, push_requests}`. */
export function e2eeNotify(relay: TestRelay, body: Record<string, any>, server: string): Answer {
  allowedOnly('push/e2ee/notify', body, ['realm_uuid', 'push_requests']);
  if (typeof body.realm_uuid !== 'string') throw new ShapeError('realm_uuid must be a string');
  if (!Array.isArray(body.push_requests)) throw new ShapeError('push_requests is not a list');
  for (const r of body.push_requests) {
    checkTokenId((r as Record<string, unknown>)?.token_id);
    checkPushRequest(r, 'http_headers' in (r as object) ? 'apns' : 'fcm');
  }
  return () => {
    if (!relay.knownRealm(server, body.realm_uuid)) throw missingRealm();
    checkPushAllowed(relay);
    const expire = new Set(relay.okExtras().expiredTokenIds ?? []);
    const deleted: string[] = [];
    const sent = { apns: 0, fcm: 0 };
    for (const r of body.push_requests as Array<Record<string, any>>) {
      const device = relay.e2eeDevices.get(`${body.realm_uuid}:${r.token_id}`);
      if (!device || device.expired || expire.has(r.token_id)) {
        if (device) device.expired = true;
        deleted.push(r.token_id);
        continue;
      }
      // The request must be the one for the kind of device the registration named.
      checkPushRequest(r, device.kind);
      relay.e2eeDeliveries.push({ realmUuid: body.realm_uuid, tokenId: r.token_id, kind: device.kind, request: r });
      sent[device.kind]++;
    }
    return { apple_successfully_sent_count: sent.apns, android_successfully_sent_count: sent.fcm, delete_token_ids: deleted };
  };
}
