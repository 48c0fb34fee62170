import { flagBit } from '@chat/contracts';
import type { Db } from '@chat/db';
import type { Services } from '../context';
import { b64TokenId, recordDeviceEvent } from './device-events';
import { encryptPayload } from '../lib/crypto';
import type { RelayClient, RelayPushRequest } from '../lib/relay';
import type { RealmInfo } from '../lib/realms';
import type { NotifyJob, PushChannel, RemoveJob } from '../lib/jobs';
import { legacyMessagePayloads, legacyRemovalPayloads, legacyTokens, pushToLegacyTokens } from '../lib/legacy';
import { registeredLegacyTokens } from './legacy-registration';

const READ = flagBit('read');
const ACTIVE_PUSH = flagBit('active_mobile_push_notification');

export interface PushTarget {
  deviceId: bigint;
  pushKey: Uint8Array;
  pushKeyId: bigint;
  tokenId: bigint;
  tokenKind: string;
}

/** Devices that can receive a push now: key set and token accepted by the relay. */
export async function activeDevices(db: Db, userId: number, deviceId?: number): Promise<PushTarget[]> {
  const rows = await db.pushDevice.findMany({
    where: {
      userId,
      ...(deviceId === undefined ? {} : { deviceId: BigInt(deviceId) }),
      pushTokenId: { not: null },
      pushKey: { not: null },
      pushKeyId: { not: null },
    },
    orderBy: { deviceId: 'asc' },
  });
  return rows.map((r) => ({
    deviceId: r.deviceId,
    pushKey: r.pushKey!,
    pushKeyId: r.pushKeyId!,
    tokenId: r.pushTokenId!,
    tokenKind: r.pushTokenKind ?? 'fcm',
  }));
}

export type Urgency = 'alert' | 'background';

/**
 * Encrypts `payload` for each device with that device's key and hands the batch to the relay.
 * Devices whose provider token the relay reports as gone lose their token (the client
 * registers again); returns how many devices are still reachable.
 */
export async function doPushToDevices(
  services: Services,
  relay: RelayClient,
  target: { realmId: number; userId: number },
  devices: PushTarget[],
  payload: Record<string, unknown>,
  urgency: Urgency,
): Promise<number> {
  if (!devices.length) return 0;
  const requests: RelayPushRequest[] = devices.map((d) => ({
    token_id: b64TokenId(d.tokenId)!,
    token_kind: d.tokenKind,
    payload: { push_key_id: Number(d.pushKeyId), encrypted_data: encryptPayload(d.pushKey, payload) },
    ...(d.tokenKind === 'apns'
      ? { apns_priority: urgency === 'alert' ? 10 : 5 }
      : { fcm_priority: urgency === 'alert' ? ('high' as const) : ('normal' as const) }),
  }));
  const result = await relay.notify({ realmId: target.realmId, push_requests: requests });
  const expired = devices.filter((d) => result.expired_token_ids.includes(b64TokenId(d.tokenId)!));
  if (expired.length) await forgetExpiredTokens(services, target, expired);
  return devices.length - expired.length;
}

async function forgetExpiredTokens(services: Services, target: { realmId: number; userId: number }, expired: PushTarget[]) {
  await services.db.$transaction(async (tx) => {
    for (const d of expired) {
      const updated = await tx.pushDevice.updateMany({
        where: { userId: target.userId, deviceId: d.deviceId, pushTokenId: d.tokenId },
        data: { pushTokenId: null },
      });
      if (updated.count) {
        await recordDeviceEvent(tx, target.realmId, target.userId, {
          type: 'device',
          op: 'update',
          device_id: Number(d.deviceId),
          push_token_id: null,
        });
      }
    }
  });
}

async function messageFlags(db: Db, userId: number, messageId: number): Promise<bigint | null> {
  const rows = await db.$queryRawUnsafe<Array<{ flags: bigint }>>(
    'SELECT flags FROM user_messages WHERE user_id = $1 AND message_id = $2',
    userId,
    messageId,
  );
  return rows.length ? BigInt(rows[0]!.flags) : null;
}

/**
 * Where a job attempt keeps what it already delivered: a channel finished by an earlier
 * attempt is not sent again when the job is retried for a failure of the other one.
 */
export interface Progress {
  done: Partial<Record<PushChannel, number>>;
  record(channel: PushChannel, reached: number): Promise<void>;
}

async function once(progress: Progress, channel: PushChannel, send: () => Promise<number>): Promise<number> {
  const earlier = progress.done[channel];
  if (earlier !== undefined) return earlier;
  const reached = await send();
  await progress.record(channel, reached);
  return reached;
}

/**
 * Sends one notification on both channels: encrypted to the user's E2EE devices, plaintext
 * to their legacy tokens. Returns how many devices it reached.
 */
async function sendEverywhere(
  services: Services,
  relay: RelayClient,
  job: { realmId: number; userId: number },
  progress: Progress,
  build: {
    e2ee: (realm: RealmInfo) => Record<string, unknown>;
    legacy: (recipient: { realmId: number; userId: number; realm: RealmInfo; server: string }) => ReturnType<typeof legacyRemovalPayloads>;
    urgency: Urgency;
  },
): Promise<number> {
  const [devices, tokens] = await Promise.all([activeDevices(services.db, job.userId), legacyTokens(services.db, job.userId)]);
  if (!devices.length && !tokens.length) return 0;
  const realm = await services.realms.get(job.realmId);
  const recipient = { realmId: job.realmId, userId: job.userId, realm, server: services.config.EXTERNAL_HOST };
  const e2ee = await once(progress, 'e2ee', () => doPushToDevices(services, relay, job, devices, build.e2ee(realm), build.urgency));
  // A token whose registration is still pending is registered first: listed before the relay
  // holds it, it would be reported deleted (and deleted here).
  const legacy = await once(progress, 'legacy', async () =>
    pushToLegacyTokens(services, relay, job, await registeredLegacyTokens(services, relay, job, tokens), build.legacy(recipient)),
  );
  return e2ee + legacy;
}

/** A message notification; skipped when the message was read (or lost) before its turn. */
export async function doDeliverNotification(services: Services, relay: RelayClient, job: NotifyJob, progress: Progress): Promise<void> {
  const messageId = job.notice.message_id;
  const before = await messageFlags(services.db, job.userId, messageId);
  if (before === null || before & READ) return;
  const reached = await sendEverywhere(services, relay, job, progress, {
    urgency: 'alert',
    e2ee: (realm) => ({ ...job.notice, sender_avatar_url: absoluteAvatar(realm, job.notice.sender_avatar_url), ...realm, type: 'message', user_id: job.userId }),
    legacy: (recipient) => legacyMessagePayloads(recipient, job, absoluteAvatar(recipient.realm, job.notice.sender_avatar_url)),
  });
  if (!reached) return;
  await services.db.$executeRawUnsafe(
    'UPDATE user_messages SET flags = flags | $3::bigint WHERE user_id = $1 AND message_id = $2',
    job.userId,
    messageId,
    ACTIVE_PUSH.toString(),
  );
  // Read while we were sending: the flags event may have found nothing to withdraw yet.
  const after = await messageFlags(services.db, job.userId, messageId);
  if (after !== null && after & READ) {
    await services.queue.add('remove', { realmId: job.realmId, userId: job.userId, messageIds: [messageId] } satisfies RemoveJob);
  }
}

/** Clients may be told relative avatar paths; a notification is shown outside any session. */
function absoluteAvatar(realm: RealmInfo, avatar: string | null): string | null {
  return avatar?.startsWith('/') ? `${realm.realm_url}${avatar}` : avatar;
}

/** Withdraws shown notifications, then forgets that they were shown. */
export async function doDeliverRemoval(services: Services, relay: RelayClient, job: RemoveJob, progress: Progress): Promise<void> {
  await sendEverywhere(services, relay, job, progress, {
    urgency: 'background',
    e2ee: (realm) => ({ message_ids: job.messageIds, ...realm, type: 'remove', user_id: job.userId }),
    legacy: (recipient) => legacyRemovalPayloads(recipient, job.messageIds),
  });
  await services.db.$executeRawUnsafe(
    'UPDATE user_messages SET flags = flags & ~($3::bigint) WHERE user_id = $1 AND message_id = ANY($2::int[])',
    job.userId,
    job.messageIds,
    ACTIVE_PUSH.toString(),
  );
}
