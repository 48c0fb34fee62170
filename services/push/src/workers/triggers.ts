/**
 * Who gets a mobile notification for a new message, and why. The rules are this API family's:
 *
 * - direct messages and personal mentions, when enable_offline_push_notifications is on;
 * - wildcard mentions (@all, @topic), when the user also lets wildcard mentions notify (per
 *   channel override, or the followed-topic setting in a followed topic);
 * - messages in followed topics, when enable_followed_topic_push_notifications is on;
 * - messages in channels with push notifications on (the subscription's push_notifications,
 *   null inheriting enable_stream_push_notifications), unless the channel or topic is muted.
 *
 * Never the sender, bots, deactivated users, or a user who already has the message as read.
 */

export type Settings = Record<string, unknown>;

export interface RecipientFacts {
  userId: number;
  flags: string[];
  settings: Settings;
  isDirect: boolean;
  /** Null for direct messages, and for channel recipients without a subscription row. */
  subscription: { pushNotifications: boolean | null; wildcardMentionsNotify: boolean | null; isMuted: boolean } | null;
  /** Visibility policy of the topic for this user: 'followed', 'muted', 'unmuted' or none. */
  topicPolicy: 'followed' | 'muted' | 'unmuted' | null;
}

export type Trigger =
  | 'direct_message'
  | 'mentioned'
  | 'topic_wildcard_mentioned'
  | 'stream_wildcard_mentioned'
  | 'followed_topic_push_notify'
  | 'stream_push_notify';

const on = (settings: Settings, name: string, fallback: boolean): boolean =>
  typeof settings[name] === 'boolean' ? (settings[name] as boolean) : fallback;

export function pushTrigger(r: RecipientFacts): Trigger | null {
  if (r.flags.includes('read')) return null;
  const offline = on(r.settings, 'enable_offline_push_notifications', true);
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
  if (followed && on(r.settings, 'enable_followed_topic_push_notifications', true)) return 'followed_topic_push_notify';
  if (mutedTopic || !r.subscription) return null;
  const channelPush = r.subscription.pushNotifications ?? on(r.settings, 'enable_stream_push_notifications', false);
  return channelPush ? 'stream_push_notify' : null;
}

/** The notification text: plain, and short enough for a lock screen. */
export function notificationContent(raw: string): string {
  return truncatedContent(raw).content;
}

/** The same text, and whether it was cut (the legacy FCM payload says so in content_truncated). */
export function truncatedContent(raw: string): { content: string; truncated: boolean } {
  const MAX = 200;
  const text = raw.replace(/\s+/g, ' ').trim();
  return text.length > MAX ? { content: `${text.slice(0, MAX - 1)}…`, truncated: true } : { content: text, truncated: false };
}
