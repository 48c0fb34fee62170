import type { Tx } from '@chat/db';
import { checkNotBot, errors, type Actor } from '@chat/contracts';
import type { Services } from '../context';
import { decodeStandardBase64, isUint32, tokenIdFromBytes, tokenIdOfToken } from '../lib/codec';
import { isSupportedPushKey } from '../lib/crypto';
import { enqueueRelayRegistration, type RelayRegistrationJob } from '../lib/jobs';
import { b64TokenId, recordDeviceEvent, seconds } from './device-events';
import { bumpDeviceVersion } from '../lib/device-holders';

export const TOKEN_KINDS = ['fcm', 'apns'] as const;
export type TokenKind = (typeof TOKEN_KINDS)[number];

/** A registration still pending after this long has expired at the relay and may be redone. */
const REGISTRATION_LIVENESS_MS = 24 * 3600 * 1000;

/** POST /mobile_push/register as the route read it; absent fields are undefined. */
export interface RegisterPushDeviceParams {
  deviceId: number;
  pushKey?: string;
  pushKeyId?: number;
  tokenKind?: string;
  tokenId?: string;
  bouncerPublicKey?: string;
  encryptedPushRegistration?: string;
}

interface KeyGroup {
  pushKey: Buffer;
  pushKeyId: number;
}

interface TokenGroup {
  tokenKind: TokenKind;
  tokenId: bigint;
  tokenIdBase64: string;
  bouncerPublicKey: string;
  encryptedPushRegistration: string;
}

export interface CheckedRegistration {
  deviceId: bigint;
  key?: KeyGroup;
  token?: TokenGroup;
}

const missingGroups = () =>
  errors.badRequest('Missing parameters: must provide either all push key fields, all token fields, or both.');

/** Validates every field and the combination of groups; throws the error a client sees. */
export function checkRegisterPushDevice(services: Services, actor: Actor, p: RegisterPushDeviceParams): CheckedRegistration {
  checkNotBot(actor);
  if (p.deviceId <= 0) throw errors.invalidArgument('device_id', 'Invalid `device_id`');
  if (p.pushKeyId !== undefined && !isUint32(p.pushKeyId)) {
    throw errors.invalidArgument('push_key_id', 'Invalid push_key_id: Not a valid unsigned 32-bit integer');
  }
  if (p.tokenKind !== undefined && !(TOKEN_KINDS as readonly string[]).includes(p.tokenKind)) {
    throw errors.invalidArgument('token_kind', 'Invalid token_kind: Not in the list of possible values');
  }
  if (!services.relay) throw errors.pushServiceNotConfigured();

  const keyFields = [p.pushKey, p.pushKeyId];
  const tokenFields = [p.tokenKind, p.tokenId, p.bouncerPublicKey, p.encryptedPushRegistration];
  const complete = (fields: unknown[]) => fields.every((f) => f !== undefined);
  const partial = (fields: unknown[]) => fields.some((f) => f !== undefined) && !complete(fields);
  // A half-sent group is a client bug: acting on the other group alone would hide it.
  if (partial(keyFields) || partial(tokenFields) || !(complete(keyFields) || complete(tokenFields))) {
    throw missingGroups();
  }

  const checked: CheckedRegistration = { deviceId: BigInt(p.deviceId) };
  if (complete(keyFields)) {
    const pushKey = decodeStandardBase64(p.pushKey!);
    if (!pushKey || !isSupportedPushKey(pushKey)) throw errors.invalidArgument('push_key', 'Invalid `push_key`');
    checked.key = { pushKey, pushKeyId: p.pushKeyId! };
  }
  if (complete(tokenFields)) {
    const tokenIdBytes = decodeStandardBase64(p.tokenId!);
    if (!tokenIdBytes) throw errors.invalidArgument('token_id', '`token_id` is not Base64 encoded');
    if (tokenIdBytes.length !== 8) throw errors.invalidArgument('token_id', 'Invalid `token_id`');
    const relayKey = decodeStandardBase64(p.bouncerPublicKey!);
    // The relay's keys are Curve25519 public keys (sealed boxes): 32 bytes.
    if (!relayKey || relayKey.length !== 32) {
      throw errors.invalidArgument('bouncer_public_key', 'Invalid `bouncer_public_key`');
    }
    if (!decodeStandardBase64(p.encryptedPushRegistration!)) {
      throw errors.invalidArgument('encrypted_push_registration', 'Invalid `encrypted_push_registration`');
    }
    checked.token = {
      tokenKind: p.tokenKind as TokenKind,
      tokenId: tokenIdFromBytes(tokenIdBytes),
      tokenIdBase64: p.tokenId!,
      bouncerPublicKey: p.bouncerPublicKey!,
      encryptedPushRegistration: p.encryptedPushRegistration!,
    };
  }
  return checked;
}

interface DeviceRow {
  id: number;
  push_key: Uint8Array | null;
  push_key_id: bigint | null;
  push_token_kind: string | null;
  push_token_id: bigint | null;
  pending_push_token_id: bigint | null;
  push_token_last_updated: Date | null;
  push_registration_error_code: string | null;
}

async function lockDevice(tx: Tx, userId: number, deviceId: bigint): Promise<DeviceRow | undefined> {
  const rows = await tx.$queryRawUnsafe<DeviceRow[]>(
    `SELECT id, push_key, push_key_id, push_token_kind, push_token_id, pending_push_token_id,
            push_token_last_updated, push_registration_error_code
     FROM push_devices WHERE user_id = $1 AND device_id = $2 FOR UPDATE`,
    userId,
    deviceId,
  );
  return rows[0];
}

function sameBytes(a: Uint8Array | null, b: Buffer): boolean {
  return a !== null && Buffer.from(a).equals(b);
}

function registrationInProgress(d: DeviceRow, now: Date): boolean {
  if (d.push_registration_error_code !== null || d.pending_push_token_id === null) return false;
  const since = d.push_token_last_updated?.getTime() ?? 0;
  return now.getTime() - since < REGISTRATION_LIVENESS_MS;
}

/**
 * Applies a checked registration: the first one (both groups) configures the device, a key
 * group alone rotates the key, a token group alone rotates the token. A new or changed token
 * is handed to the relay by a delivery job once the transaction has committed.
 */
export async function doRegisterPushDevice(services: Services, actor: Actor, reg: CheckedRegistration): Promise<void> {
  const { realmId, userId } = actor;
  const job = await services.db.$transaction(async (tx): Promise<RelayRegistrationJob | null> => {
    const now = new Date();
    let device = await lockDevice(tx, userId, reg.deviceId);
    const deviceId = Number(reg.deviceId);

    if (reg.key && !reg.token) {
      if (!device || device.push_key_id === null) throw errors.badRequest('No push registration exists to rotate key for.');
      const same = Number(device.push_key_id) === reg.key.pushKeyId && sameBytes(device.push_key, reg.key.pushKey);
      if (same) return null;
      await tx.pushDevice.update({
        where: { id: device.id },
        data: { pushKey: new Uint8Array(reg.key.pushKey), pushKeyId: BigInt(reg.key.pushKeyId) },
      });
      await recordDeviceEvent(tx, realmId, userId, { type: 'device', op: 'update', device_id: deviceId, push_key_id: reg.key.pushKeyId });
      return null;
    }

    const token = reg.token!;
    if (device && registrationInProgress(device, now)) {
      throw errors.badRequest('A registration for the device already in progress.');
    }
    if (!reg.key) {
      if (!device || device.push_key_id === null) throw errors.badRequest('No push registration exists to rotate token for.');
      if (device.push_registration_error_code === null && device.push_token_id === token.tokenId) return null;
      await tx.pushDevice.update({
        where: { id: device.id },
        data: { pendingPushTokenId: token.tokenId, pushTokenLastUpdated: now, pushRegistrationErrorCode: null },
      });
      await recordDeviceEvent(tx, realmId, userId, {
        type: 'device',
        op: 'update',
        device_id: deviceId,
        pending_push_token_id: token.tokenIdBase64,
        push_token_last_updated_timestamp: seconds(now),
        push_registration_error_code: null,
      });
    } else {
      if (!device) {
        const created = await tx.pushDevice.create({ data: { realmId, userId, deviceId: reg.deviceId } });
        await recordDeviceEvent(tx, realmId, userId, { type: 'device', op: 'add', device_id: deviceId });
        device = { id: created.id } as DeviceRow;
      } else if (
        device.push_registration_error_code === null &&
        Number(device.push_key_id) === reg.key.pushKeyId &&
        sameBytes(device.push_key, reg.key.pushKey) &&
        device.push_token_id === token.tokenId &&
        device.push_token_kind === token.tokenKind
      ) {
        return null; // the same registration again
      }
      await tx.pushDevice.update({
        where: { id: device.id },
        data: {
          pushKey: new Uint8Array(reg.key.pushKey),
          pushKeyId: BigInt(reg.key.pushKeyId),
          pushTokenKind: token.tokenKind,
          pendingPushTokenId: token.tokenId,
          pushTokenLastUpdated: now,
          pushRegistrationErrorCode: null,
        },
      });
      await recordDeviceEvent(tx, realmId, userId, {
        type: 'device',
        op: 'update',
        device_id: deviceId,
        push_key_id: reg.key.pushKeyId,
        pending_push_token_id: token.tokenIdBase64,
        push_token_last_updated_timestamp: seconds(now),
        push_registration_error_code: null,
      });
    }
    await removeMatchingLegacyTokens(tx, userId, token.tokenId);
    return {
      realmId,
      userId,
      deviceId,
      tokenId: b64TokenId(token.tokenId)!,
      tokenKind: token.tokenKind,
      bouncerPublicKey: token.bouncerPublicKey,
      encryptedPushRegistration: token.encryptedPushRegistration,
    };
  });
  await bumpDeviceVersion(services);
  if (job) await enqueueRelayRegistration(services, job);
}

/**
 * An app that moved to E2EE registration still has its old plaintext token registered; once
 * the same provider token is registered end-to-end encrypted, the old registration would only
 * produce duplicate, unencrypted notifications.
 */
async function removeMatchingLegacyTokens(tx: Tx, userId: number, tokenId: bigint): Promise<void> {
  const legacy = await tx.pushDeviceToken.findMany({ where: { userId }, select: { id: true, token: true } });
  const matching = legacy.filter((t) => tokenIdOfToken(t.token) === tokenId).map((t) => t.id);
  if (matching.length) await tx.pushDeviceToken.deleteMany({ where: { id: { in: matching } } });
}

/**
 * POST /register_client_device: a new device id for the caller, to pass to
 * /mobile_push/register. Ids count up per user; a client may also pick its own id, which the
 * first full registration then creates.
 */
export async function doRegisterClientDevice(services: Services, actor: Actor): Promise<number> {
  checkNotBot(actor);
  const { realmId, userId } = actor;
  const id = await services.db.$transaction(async (tx) => {
    // Serialises id allocation per user; released at commit.
    await tx.$queryRawUnsafe(`SELECT 1 AS locked FROM (SELECT pg_advisory_xact_lock(hashtext('push_devices:' || $1::text))) AS l`, userId);
    const last = await tx.pushDevice.aggregate({ where: { userId }, _max: { deviceId: true } });
    const deviceId = Number((last._max.deviceId ?? 0n) + 1n);
    await tx.pushDevice.create({ data: { realmId, userId, deviceId: BigInt(deviceId) } });
    await recordDeviceEvent(tx, realmId, userId, { type: 'device', op: 'add', device_id: deviceId });
    return deviceId;
  });
  await bumpDeviceVersion(services);
  return id;
}

/**
 * POST /remove_client_device: forgets one of the caller's devices and its push registration,
 * so nothing more is sent to it; every client of the user hears `device` `remove`.
 */
export async function doRemoveClientDevice(services: Services, actor: Actor, deviceId: number): Promise<void> {
  checkNotBot(actor);
  const { realmId, userId } = actor;
  if (deviceId <= 0) throw errors.invalidArgument('device_id', 'Invalid `device_id`');
  await services.db.$transaction(async (tx) => {
    // The unique (user, device) row decides: of two racing removals one finds nothing.
    const removed = await tx.pushDevice.deleteMany({ where: { userId, deviceId: BigInt(deviceId) } });
    if (removed.count === 0) throw errors.invalidArgument('device_id', 'Invalid `device_id`');
    await recordDeviceEvent(tx, realmId, userId, { type: 'device', op: 'remove', device_id: deviceId });
  });
  await bumpDeviceVersion(services);
}
