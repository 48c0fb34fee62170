import type { Db } from '@chat/db';
import type { Services } from '../context';
import type { RealmInfo } from './realms';
import type { RelayClient, RelayLegacyNotification } from './relay';
import type { NotifyJob } from './jobs';

/**
 * Notifications for the deprecated plaintext tokens (POST /users/me/apns_device_token and
 * /users/me/android_gcm_reg_id), in the payload formats clients registered that way understand:
 * the relay's `remotes/push/notify` request carries one payload for APNs and one for FCM, and
 * the relay sends each to the listed tokens of its kind. Field names are this API family's
 * (zulip_message_id because FCM reserves message_id, realm_uri beside realm_url for old apps).
 */

export interface LegacyToken {
  kind: 'apns' | 'fcm';
  token: string;
}

/** The user's legacy tokens, oldest first. */
export async function legacyTokens(db: Db, userId: number): Promise<LegacyToken[]> {
  const rows = await db.pushDeviceToken.findMany({ where: { userId }, orderBy: { id: 'asc' }, select: { kind: true, token: true } });
  return rows.filter((r): r is LegacyToken => r.kind === 'apns' || r.kind === 'fcm');
}

type Payloads = Pick<RelayLegacyNotification, 'apns_payload' | 'gcm_payload' | 'gcm_options'>;

export interface Recipient {
  realmId: number;
  userId: number;
  realm: RealmInfo;
  /** EXTERNAL_HOST: with realm_id, what apps before realm_uri told accounts apart by. */
  server: string;
}

/** Fields every legacy payload starts with. */
function basePayload(r: Recipient): Record<string, unknown> {
  return {
    server: r.server,
    realm_id: r.realmId,
    realm_uri: r.realm.realm_url,
    realm_url: r.realm.realm_url,
    realm_name: r.realm.realm_name,
    user_id: r.userId,
  };
}

const MENTION_TRIGGERS = new Set(['mentioned']);
const WILDCARD_TRIGGERS = new Set(['topic_wildcard_mentioned', 'stream_wildcard_mentioned']);
/** What clients of this API family show for the empty topic. */
const EMPTY_TOPIC_NAME = 'general chat';

export function legacyMessagePayloads(r: Recipient, job: NotifyJob, senderAvatarUrl: string | null): Payloads {
  const n = job.notice;
  const extra = job.legacy ?? { sender_email: '', content_truncated: false };
  const topic = n.topic === '' ? EMPTY_TOPIC_NAME : (n.topic ?? '');
  const participants = n.recipient_user_ids ?? [];
  const group = n.recipient_type === 'direct' && participants.length > 2;
  const data: Record<string, unknown> = {
    ...basePayload(r),
    sender_id: n.sender_id,
    sender_email: extra.sender_email,
    time: n.time,
  };
  if (n.recipient_type === 'channel') {
    Object.assign(data, { recipient_type: 'stream', stream: n.channel_name ?? '', stream_id: n.channel_id, topic });
  } else {
    data.recipient_type = 'private';
    // Group conversations only: a 1:1 conversation is named by its sender.
    if (group) data.pm_users = participants.join(',');
  }

  // iOS shows title, then subtitle, then body.
  const title =
    n.recipient_type === 'channel'
      ? `#${n.channel_name ?? ''} > ${topic}`
      : group && extra.recipient_full_names?.length
        ? [...extra.recipient_full_names].sort().join(', ')
        : n.sender_full_name;
  const subtitle = MENTION_TRIGGERS.has(job.trigger)
    ? `${n.sender_full_name} mentioned you:`
    : WILDCARD_TRIGGERS.has(job.trigger)
      ? `${n.sender_full_name} mentioned everyone:`
      : n.recipient_type === 'direct' && !group
        ? ''
        : `${n.sender_full_name}:`;

  return {
    apns_payload: {
      alert: { title, subtitle, body: n.content },
      sound: 'default',
      // Badge counts are not kept: 0 leaves the app icon without a number.
      badge: 0,
      custom: { zulip: { ...data, message_ids: [n.message_id] } },
    },
    gcm_payload: {
      ...data,
      event: 'message',
      zulip_message_id: n.message_id,
      content: n.content,
      content_truncated: extra.content_truncated,
      sender_full_name: n.sender_full_name,
      sender_avatar_url: senderAvatarUrl,
    },
    gcm_options: { priority: 'high' },
  };
}

/**
 * A test notification (POST /mobile_push/test_notification): the base fields with `event:
 * "test"`; APNs shows a fixed alert naming the organization, FCM apps build their own from the
 * data and get `time` beside it, as the reference server sends them.
 */
export function legacyTestPayloads(r: Recipient, time: number): Payloads {
  const data = { ...basePayload(r), event: 'test' };
  return {
    apns_payload: {
      alert: { title: 'Test notification', body: `This is a test notification from ${r.realm.realm_name} (${r.realm.realm_url}).` },
      sound: 'default',
      custom: { zulip: data },
    },
    gcm_payload: { ...data, time },
    gcm_options: { priority: 'high' },
  };
}

/**
 * APNs payloads are limited to 4 KB: a removal names at most the newest 200 messages (the older
 * ones are the likeliest to have been dismissed on the device already).
 */
const MAX_REMOVAL_IDS = 200;

export function legacyRemovalPayloads(r: Recipient, messageIds: number[]): Payloads {
  const ids = [...messageIds].sort((a, b) => a - b).slice(-MAX_REMOVAL_IDS);
  const listed = ids.join(',');
  return {
    apns_payload: { badge: 0, custom: { zulip: { ...basePayload(r), event: 'remove', zulip_message_ids: listed } } },
    gcm_payload: {
      ...basePayload(r),
      event: 'remove',
      zulip_message_ids: listed,
      // Apps from before zulip_message_ids read only this one.
      zulip_message_id: ids[0],
    },
    gcm_options: { priority: 'normal' },
  };
}

/**
 * Hands one legacy notification to the relay for all of the user's legacy tokens. Tokens the
 * relay reports as invalid are deleted (for every user holding them: the provider refuses the
 * token itself). Returns how many tokens are still reachable.
 */
export async function pushToLegacyTokens(
  services: Services,
  relay: RelayClient,
  target: { realmId: number; userId: number },
  tokens: LegacyToken[],
  payloads: Payloads,
): Promise<number> {
  if (!tokens.length) return 0;
  const { deleted } = await relay.notifyLegacy({
    realmId: target.realmId,
    userId: target.userId,
    ...payloads,
    android_devices: tokens.filter((t) => t.kind === 'fcm').map((t) => t.token),
    apple_devices: tokens.filter((t) => t.kind === 'apns').map((t) => t.token),
  });
  const gone = [
    ...deleted.android_devices.map((token) => ({ kind: 'fcm', token })),
    ...deleted.apple_devices.map((token) => ({ kind: 'apns', token })),
  ];
  if (gone.length) {
    await services.db.pushDeviceToken.deleteMany({ where: { OR: gone } });
    services.log.info({ userId: target.userId, removed: gone.length }, 'push: removed legacy tokens the relay reported invalid');
  }
  return tokens.filter((t) => !gone.some((g) => g.kind === t.kind && g.token === t.token)).length;
}
