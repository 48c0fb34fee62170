/** The channel and subscription objects clients receive, and who may see a channel. */
import type { Stream, Subscription, Tx } from '@chat/db';
import { ROLE } from '@chat/contracts';
import { isGroupSettingValue, systemGroupId, SYSTEM_GROUPS, type GroupSettingValue } from '../lib/groups';

const seconds = (d: Date) => Math.floor(d.getTime() / 1000);

/** Defaults of a channel's group settings when none was chosen. */
export const STREAM_GROUP_DEFAULTS = {
  can_add_subscribers_group: SYSTEM_GROUPS.nobody,
  can_remove_subscribers_group: SYSTEM_GROUPS.administrators,
  can_send_message_group: SYSTEM_GROUPS.everyone,
  can_administer_channel_group: SYSTEM_GROUPS.nobody,
} as const;

async function groupValue(tx: Tx, realmId: number, stored: unknown, fallback: string): Promise<GroupSettingValue> {
  return isGroupSettingValue(stored) ? stored : systemGroupId(tx, realmId, fallback);
}

async function weeklyTraffic(tx: Tx, streamId: number, created: Date): Promise<number | null> {
  // Too young a channel has no meaningful weekly rate.
  if (Date.now() - created.getTime() < 7 * 24 * 3600 * 1000) return null;
  const since = new Date(Date.now() - 28 * 24 * 3600 * 1000);
  const n = await tx.message.count({ where: { streamId, dateSent: { gte: since } } });
  return Math.round(n / 4);
}

export async function streamDict(tx: Tx, s: Stream): Promise<Record<string, unknown>> {
  const [canAdd, canRemove, canSend, canAdmin, subscriberCount, lastMessage] = await Promise.all([
    groupValue(tx, s.realmId, s.canAddSubscribersGroup, STREAM_GROUP_DEFAULTS.can_add_subscribers_group),
    groupValue(tx, s.realmId, s.canRemoveSubscribersGroup, STREAM_GROUP_DEFAULTS.can_remove_subscribers_group),
    groupValue(tx, s.realmId, s.canSendMessageGroup, STREAM_GROUP_DEFAULTS.can_send_message_group),
    systemGroupId(tx, s.realmId, STREAM_GROUP_DEFAULTS.can_administer_channel_group),
    tx.subscription.count({ where: { streamId: s.id, active: true, user: { isActive: true } } }),
    tx.message.findFirst({ where: { streamId: s.id }, orderBy: { id: 'desc' }, select: { dateSent: true } }),
  ]);
  const recentlyActive = !!lastMessage && Date.now() - lastMessage.dateSent.getTime() < 180 * 24 * 3600 * 1000;
  return {
    stream_id: s.id,
    name: s.name,
    description: s.description,
    rendered_description: s.renderedDescription,
    date_created: seconds(s.dateCreated),
    creator_id: s.creatorId,
    invite_only: s.inviteOnly,
    is_web_public: s.isWebPublic,
    is_announcement_only: s.streamPostPolicy === 2,
    stream_post_policy: s.streamPostPolicy,
    history_public_to_subscribers: s.historyPublicToSubscribers,
    first_message_id: s.firstMessageId,
    folder_id: s.folderId,
    message_retention_days: s.messageRetentionDays,
    topics_policy: s.topicsPolicy,
    is_archived: s.isArchived,
    is_recently_active: recentlyActive,
    stream_weekly_traffic: await weeklyTraffic(tx, s.id, s.dateCreated),
    subscriber_count: subscriberCount,
    can_add_subscribers_group: canAdd,
    can_remove_subscribers_group: canRemove,
    can_send_message_group: canSend,
    can_administer_channel_group: canAdmin,
  };
}

export async function subscriptionDict(
  tx: Tx,
  s: Stream,
  sub: Subscription,
  subscribers?: number[],
): Promise<Record<string, unknown>> {
  const base = await streamDict(tx, s);
  const dict: Record<string, unknown> = {
    ...base,
    color: sub.color,
    is_muted: sub.isMuted,
    in_home_view: !sub.isMuted,
    pin_to_top: sub.pinToTop,
    desktop_notifications: sub.desktopNotifications,
    email_notifications: sub.emailNotifications,
    push_notifications: sub.pushNotifications,
    audible_notifications: sub.audibleNotifications,
    wildcard_mentions_notify: sub.wildcardMentionsNotify,
  };
  if (subscribers) dict.subscribers = subscribers;
  return dict;
}

export async function activeSubscriberIds(tx: Tx, streamId: number): Promise<number[]> {
  const rows = await tx.subscription.findMany({
    where: { streamId, active: true, user: { isActive: true } },
    select: { userId: true },
    orderBy: { userId: 'asc' },
  });
  return rows.map((r) => r.userId);
}

/**
 * Users who may see a channel exists: everyone but guests for a public channel (plus
 * subscribed guests); subscribers and administrators for a private one. `extra` are users
 * about to be subscribed in the same transaction.
 */
export async function streamViewerIds(tx: Tx, s: Stream, extra: number[]): Promise<number[]> {
  const subscribers = await activeSubscriberIds(tx, s.id);
  const roleLimit = s.inviteOnly ? ROLE.ADMINISTRATOR : ROLE.MEMBER;
  const byRole = await tx.user.findMany({
    where: { realmId: s.realmId, isActive: true, role: { lte: roleLimit } },
    select: { id: true },
  });
  return [...new Set([...byRole.map((u) => u.id), ...subscribers, ...extra])].sort((a, b) => a - b);
}
