import { flagBit } from '@chat/contracts';
import type { Db } from '@chat/db';
import type { Services } from '../context';
import { b64TokenId, recordDeviceEvent } from '../actions/device-events';
import { encryptPayload } from '../lib/crypto';
import type { RelayClient, RelayPushRequest } from '../lib/relay';
import type { NotifyJob, RemoveJob } from './jobs';

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
export async function pushToDevices(
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
  const result = await relay.notify({ realm_id: target.realmId, user_id: target.userId, push_requests: requests });
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

/** A message notification; skipped when the message was read (or lost) before its turn. */
export async function deliverNotification(services: Services, relay: RelayClient, job: NotifyJob): Promise<void> {
  const messageId = job.notice.message_id;
  const before = await messageFlags(services.db, job.userId, messageId);
  if (before === null || before & READ) return;
  const devices = await activeDevices(services.db, job.userId);
  if (!devices.length) return;
  const realm = await services.realms.get(job.realmId);
  const avatar = job.notice.sender_avatar_url;
  // Clients may be told relative avatar paths; a notification is shown outside any session.
  const senderAvatarUrl = avatar?.startsWith('/') ? `${realm.realm_url}${avatar}` : avatar;
  const payload = { ...job.notice, sender_avatar_url: senderAvatarUrl, ...realm, type: 'message', user_id: job.userId };
  const reached = await pushToDevices(services, relay, job, devices, payload, 'alert');
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

/** Withdraws shown notifications, then forgets that they were shown. */
export async function deliverRemoval(services: Services, relay: RelayClient, job: RemoveJob): Promise<void> {
  const devices = await activeDevices(services.db, job.userId);
  if (devices.length) {
    const realm = await services.realms.get(job.realmId);
    const payload = { message_ids: job.messageIds, ...realm, type: 'remove', user_id: job.userId };
    await pushToDevices(services, relay, job, devices, payload, 'background');
  }
  await services.db.$executeRawUnsafe(
    'UPDATE user_messages SET flags = flags & ~($3::bigint) WHERE user_id = $1 AND message_id = ANY($2::int[])',
    job.userId,
    job.messageIds,
    ACTIVE_PUSH.toString(),
  );
}
