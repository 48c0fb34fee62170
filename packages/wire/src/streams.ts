/**
 * Channels as stream events, GET /streams and register's `streams` and `never_subscribed` give
 * them, and subscriptions as subscription events, GET /users/me/subscriptions and register's
 * `subscriptions` and `unsubscribed` give them.
 */
import type { Stream, Subscription } from '@chat/db';
import { SYSTEM_GROUPS, type StreamObject, type SubscriptionObject } from '@chat/contracts';
import { unixSeconds } from './time';

/** A channel with a message this recent is "recently active". */
export const RECENTLY_ACTIVE_DAYS = 180;

/** Weekly traffic is averaged over this many days of messages. */
export const TRAFFIC_WINDOW_DAYS = 28;

/** A channel younger than this has no weekly traffic: too young for a rate. */
export const TRAFFIC_MIN_AGE_DAYS = 7;

/**
 * The channel group settings of the family's API (feature level 420): the row field each is
 * stored in (null: not chosen), the system group it means while not chosen, and whether it may
 * be "everyone" (those that may not are never held by guests, whatever the group says). The one
 * table channel objects, server_supported_permission_settings and the messaging service's checks
 * read.
 */
export const STREAM_GROUP_SETTINGS = {
  can_add_subscribers_group: { field: 'canAddSubscribersGroup', defaultGroup: SYSTEM_GROUPS.nobody, allowEveryoneGroup: false },
  can_remove_subscribers_group: { field: 'canRemoveSubscribersGroup', defaultGroup: SYSTEM_GROUPS.administrators, allowEveryoneGroup: true },
  can_send_message_group: { field: 'canSendMessageGroup', defaultGroup: SYSTEM_GROUPS.everyone, allowEveryoneGroup: true },
  can_administer_channel_group: { field: 'canAdministerChannelGroup', defaultGroup: SYSTEM_GROUPS.nobody, allowEveryoneGroup: false },
  can_delete_any_message_group: { field: 'canDeleteAnyMessageGroup', defaultGroup: SYSTEM_GROUPS.nobody, allowEveryoneGroup: true },
  can_delete_own_message_group: { field: 'canDeleteOwnMessageGroup', defaultGroup: SYSTEM_GROUPS.nobody, allowEveryoneGroup: true },
  can_move_messages_out_of_channel_group: { field: 'canMoveMessagesOutOfChannelGroup', defaultGroup: SYSTEM_GROUPS.nobody, allowEveryoneGroup: true },
  can_move_messages_within_channel_group: { field: 'canMoveMessagesWithinChannelGroup', defaultGroup: SYSTEM_GROUPS.nobody, allowEveryoneGroup: true },
  can_resolve_topics_group: { field: 'canResolveTopicsGroup', defaultGroup: SYSTEM_GROUPS.nobody, allowEveryoneGroup: true },
  can_subscribe_group: { field: 'canSubscribeGroup', defaultGroup: SYSTEM_GROUPS.nobody, allowEveryoneGroup: false },
} as const satisfies Record<string, { field: keyof Stream; defaultGroup: string; allowEveryoneGroup: boolean }>;

export type StreamGroupSettingName = keyof typeof STREAM_GROUP_SETTINGS;
export const STREAM_GROUP_SETTING_NAMES = Object.keys(STREAM_GROUP_SETTINGS) as StreamGroupSettingName[];

/** System group each group setting of a channel means while none was chosen. */
export const STREAM_GROUP_SETTING_DEFAULTS = Object.fromEntries(
  STREAM_GROUP_SETTING_NAMES.map((name) => [name, STREAM_GROUP_SETTINGS[name].defaultGroup]),
) as { readonly [K in StreamGroupSettingName]: (typeof STREAM_GROUP_SETTINGS)[K]['defaultGroup'] };

/** What a channel object needs besides its row. */
export interface StreamFacts {
  /** The realm's system groups, name -> id: group settings never chosen fall back to them. */
  systemGroups: ReadonlyMap<string, number>;
  /** Active subscriptions of active users. */
  subscriberCount: number;
  /** Time of the channel's latest message, null without messages. */
  lastMessageAt: Date | null;
  /** Messages of the last TRAFFIC_WINDOW_DAYS days; null when not counted. */
  messagesLastFourWeeks: number | null;
  now?: Date;
}

/**
 * The subscriber list a channel object carries when it was asked for: `subscribers` in full, or
 * `partial_subscribers` (register's include_subscribers=partial on big channels).
 */
export type SubscriberList = { subscribers: number[] } | { partial_subscribers: number[] };

const DAY_MS = 86_400_000;

/**
 * One channel. Weekly traffic is null for a channel younger than a week (too young for a rate)
 * or when the caller did not count its messages.
 */
export function streamObject(s: Stream, facts: StreamFacts, subscribers?: SubscriberList): StreamObject {
  const now = (facts.now ?? new Date()).getTime();
  const groups = Object.fromEntries(
    STREAM_GROUP_SETTING_NAMES.map((name) => {
      const { field, defaultGroup } = STREAM_GROUP_SETTINGS[name];
      return [name, s[field] ?? facts.systemGroups.get(defaultGroup) ?? null];
    }),
  );
  const oldEnough = now - s.dateCreated.getTime() >= TRAFFIC_MIN_AGE_DAYS * DAY_MS;
  return {
    stream_id: s.id,
    name: s.name,
    description: s.description,
    rendered_description: s.renderedDescription,
    date_created: unixSeconds(s.dateCreated),
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
    is_recently_active: !!facts.lastMessageAt && now - facts.lastMessageAt.getTime() < RECENTLY_ACTIVE_DAYS * DAY_MS,
    stream_weekly_traffic: oldEnough && facts.messagesLastFourWeeks !== null ? Math.round(facts.messagesLastFourWeeks / 4) : null,
    subscriber_count: facts.subscriberCount,
    ...groups,
    ...subscribers,
  };
}

/** The columns of a subscriptions row that the subscription object shows. */
export type SubscriptionRow = Pick<
  Subscription,
  'color' | 'isMuted' | 'pinToTop' | 'desktopNotifications' | 'emailNotifications' | 'pushNotifications' | 'audibleNotifications' | 'wildcardMentionsNotify'
>;

/**
 * One subscription: the channel object plus the subscriber's own properties. Notification
 * settings are null while they follow the user's defaults (see inheritNotificationSettings).
 */
export function subscriptionObject(
  s: Stream,
  sub: SubscriptionRow,
  facts: StreamFacts,
  subscribers?: SubscriberList,
): SubscriptionObject {
  return {
    ...streamObject(s, facts, subscribers),
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
}

/** Channel notification settings, and the user setting each one follows while it is null. */
export const STREAM_NOTIFICATION_DEFAULTS = {
  desktop_notifications: 'enable_stream_desktop_notifications',
  audible_notifications: 'enable_stream_audible_notifications',
  push_notifications: 'enable_stream_push_notifications',
  email_notifications: 'enable_stream_email_notifications',
} as const;

/**
 * A subscription object for a client without the notification_settings_null capability: such
 * clients take only booleans, so null notification settings become the user's default.
 * wildcard_mentions_notify was nullable from its start and stays as it is, as in the reference server.
 */
export function inheritNotificationSettings(sub: Record<string, unknown>, userSettings: Record<string, unknown>): Record<string, unknown> {
  const out = { ...sub };
  for (const [field, setting] of Object.entries(STREAM_NOTIFICATION_DEFAULTS)) {
    if (out[field] === null) out[field] = Boolean(userSettings[setting]);
  }
  return out;
}
