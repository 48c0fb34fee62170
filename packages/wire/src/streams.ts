/** Channels as stream events and register's `streams` and `subscriptions` give them. */
import type { Stream } from '@chat/db';
import { SYSTEM_GROUPS } from '@chat/realm';
import { unixSeconds } from './time';

/** A channel with a message this recent is "recently active". */
export const RECENTLY_ACTIVE_DAYS = 180;

/** What a channel object needs besides its row. */
export interface StreamFacts {
  /** The realm's system groups, name -> id: group settings never chosen fall back to them. */
  systemGroups: ReadonlyMap<string, number>;
  /** Active subscribers who are active users. */
  subscriberCount: number;
  lastMessageAt: Date | null;
  /** Messages of the last four weeks; null when not counted. */
  messagesLastFourWeeks: number | null;
  now?: Date;
}

const DAY_MS = 86_400_000;

/**
 * One channel. Weekly traffic is null for a channel younger than a week (too young for a rate)
 * or when the caller did not count its messages.
 */
export function streamObject(s: Stream, facts: StreamFacts): Record<string, unknown> {
  const now = (facts.now ?? new Date()).getTime();
  const group = (stored: unknown, fallback: string) => stored ?? facts.systemGroups.get(fallback) ?? null;
  const oldEnough = now - s.dateCreated.getTime() >= 7 * DAY_MS;
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
    can_add_subscribers_group: group(s.canAddSubscribersGroup, SYSTEM_GROUPS.nobody),
    can_remove_subscribers_group: group(s.canRemoveSubscribersGroup, SYSTEM_GROUPS.administrators),
    can_send_message_group: group(s.canSendMessageGroup, SYSTEM_GROUPS.everyone),
    can_administer_channel_group: facts.systemGroups.get(SYSTEM_GROUPS.nobody) ?? null,
  };
}
