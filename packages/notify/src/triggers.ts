/**
 * Who is notified of a new message away from the app, and why: one set of rules for mobile push
 * and for missed-message email, as this API family has them (its notification_data.py). Each
 * medium reads its own settings; the order of the checks, and so the trigger reported, is the same.
 *
 * - direct messages and personal mentions (group mentions set the same `mentioned` flag), when
 *   enable_offline_<medium>_notifications is on;
 * - wildcard mentions (@all, @topic), when the user also lets wildcard mentions notify (per
 *   channel override, or the followed-topic setting in a followed topic), unless the channel or
 *   topic is muted;
 * - messages in followed topics, when enable_followed_topic_<medium>_notifications is on;
 * - messages in channels with <medium> notifications on (the subscription's own value, null
 *   inheriting enable_stream_<medium>_notifications), unless the channel or topic is muted.
 *
 * Never a message the user already has as read: the sender's own, and those of a muted sender,
 * arrive read. The callers leave out the sender, bots and deactivated users, and decide whether
 * the user is away (ActiveClients).
 */

export type Settings = Record<string, unknown>;
export type Medium = 'push' | 'email';

export interface RecipientFacts {
  userId: number;
  flags: string[];
  settings: Settings;
  isDirect: boolean;
  /** Null for direct messages, and for channel recipients without a subscription row. */
  subscription: {
    pushNotifications: boolean | null;
    emailNotifications?: boolean | null;
    wildcardMentionsNotify: boolean | null;
    isMuted: boolean;
  } | null;
  /** Visibility policy of the topic for this user: 'followed', 'muted', 'unmuted' or none. */
  topicPolicy: 'followed' | 'muted' | 'unmuted' | null;
}

export type Trigger =
  | 'direct_message'
  | 'mentioned'
  | 'topic_wildcard_mentioned'
  | 'stream_wildcard_mentioned'
  | 'followed_topic_push_notify'
  | 'stream_push_notify'
  | 'followed_topic_email_notify'
  | 'stream_email_notify';

/** The triggers that mean the person was mentioned (personally, by a group or by a wildcard). */
export const MENTION_TRIGGERS: ReadonlySet<Trigger> = new Set(['mentioned', 'topic_wildcard_mentioned', 'stream_wildcard_mentioned']);

const on = (settings: Settings, name: string, fallback: boolean): boolean =>
  typeof settings[name] === 'boolean' ? (settings[name] as boolean) : fallback;

/** The trigger of a notification in `medium`, or null when the rules say none. */
export function notificationTrigger(medium: Medium, r: RecipientFacts): Trigger | null {
  if (r.flags.includes('read')) return null;
  const offline = on(r.settings, `enable_offline_${medium}_notifications`, true);
  if (r.isDirect) return offline ? 'direct_message' : null;
  if (r.flags.includes('mentioned')) return offline ? 'mentioned' : null;

  const followed = r.topicPolicy === 'followed';
  const mutedTopic = r.topicPolicy === 'muted' || (r.subscription?.isMuted === true && r.topicPolicy !== 'unmuted' && !followed);
  const wildcardsNotify = followed
    ? on(r.settings, 'enable_followed_topic_wildcard_mentions_notify', true)
    : (r.subscription?.wildcardMentionsNotify ?? on(r.settings, 'wildcard_mentions_notify', true));
  if (offline && wildcardsNotify && !mutedTopic) {
    if (r.flags.includes('topic_wildcard_mentioned')) return 'topic_wildcard_mentioned';
    if (r.flags.includes('stream_wildcard_mentioned') || r.flags.includes('wildcard_mentioned')) {
      return 'stream_wildcard_mentioned';
    }
  }
  if (followed && on(r.settings, `enable_followed_topic_${medium}_notifications`, true)) return `followed_topic_${medium}_notify`;
  if (mutedTopic || !r.subscription) return null;
  const own = medium === 'push' ? r.subscription.pushNotifications : (r.subscription.emailNotifications ?? null);
  const channel = own ?? on(r.settings, `enable_stream_${medium}_notifications`, false);
  return channel ? `stream_${medium}_notify` : null;
}

export const pushTrigger = (r: RecipientFacts): Trigger | null => notificationTrigger('push', r);
export const emailTrigger = (r: RecipientFacts): Trigger | null => notificationTrigger('email', r);
