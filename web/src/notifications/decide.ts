/**
 * Whether a new message pops up a desktop notification (and plays a sound), decided as the
 * family's web app decides: never for your own messages, muted senders or what you are looking
 * at; direct mentions and followed topics override muting; otherwise the per-channel settings,
 * then the personal ones (direct messages, mentions, alert words, wildcard mentions).
 */
export const TOPIC_POLICY = { inherit: 0, muted: 1, unmuted: 2, followed: 3 } as const;

export interface NotifyMessage {
  id: number;
  type: 'stream' | 'private';
  sender_id: number;
  stream_id?: number;
  subject: string;
  flags: string[];
}

export interface NotifySubscription {
  is_muted: boolean;
  desktop_notifications: boolean | null;
  audible_notifications: boolean | null;
  wildcard_mentions_notify: boolean | null;
}

export interface NotifyContext {
  selfId: number;
  settings: (name: string) => unknown;
  subscription: (streamId: number) => NotifySubscription | undefined;
  topicPolicy: (streamId: number, topic: string) => number;
  isMutedUser: (userId: number) => boolean;
  /** The tab is focused and its view shows this message's conversation. */
  isViewing: (message: NotifyMessage) => boolean;
}

const WILDCARD_FLAGS = ['wildcard_mentioned', 'stream_wildcard_mentioned', 'topic_wildcard_mentioned'];

const mentionedDirectly = (m: NotifyMessage) => m.flags.includes('mentioned');
const mentioned = (m: NotifyMessage) => mentionedDirectly(m) || m.flags.some((f) => WILDCARD_FLAGS.includes(f));
const alerted = (m: NotifyMessage) => m.flags.includes('has_alert_word');

/** A channel's own setting, or the person's default for channels where it is unset. */
function channelSetting(ctx: NotifyContext, streamId: number | undefined, name: 'desktop_notifications' | 'audible_notifications' | 'wildcard_mentions_notify'): boolean {
  if (streamId === undefined) return false;
  const sub = ctx.subscription(streamId);
  if (!sub) return false;
  const own = sub[name];
  if (own !== null && own !== undefined) return own;
  return !!ctx.settings(name === 'wildcard_mentions_notify' ? 'wildcard_mentions_notify' : `enable_stream_${name}`);
}

/** Properties of the message that rule a notification out whatever the settings. */
export function isNotifiable(m: NotifyMessage, ctx: NotifyContext): boolean {
  if (m.sender_id === ctx.selfId) return false;
  if (m.flags.includes('read')) return false;
  if (ctx.isMutedUser(m.sender_id)) return false;
  if (mentionedDirectly(m)) return true;
  if (m.type !== 'stream' || m.stream_id === undefined) return true;
  const policy = ctx.topicPolicy(m.stream_id, m.subject);
  if (policy === TOPIC_POLICY.followed) return true;
  if (policy === TOPIC_POLICY.muted) return false;
  const sub = ctx.subscription(m.stream_id);
  if (sub?.is_muted && policy !== TOPIC_POLICY.unmuted) return mentioned(m) && sub.wildcard_mentions_notify === true;
  return true;
}

function personalRules(m: NotifyMessage, ctx: NotifyContext, enabledSetting: string, followedSetting: string, channelName: 'desktop_notifications' | 'audible_notifications'): boolean {
  const followed = m.type === 'stream' && m.stream_id !== undefined && ctx.topicPolicy(m.stream_id, m.subject) === TOPIC_POLICY.followed;
  if (m.type === 'stream' && channelSetting(ctx, m.stream_id, channelName)) return true;
  if (followed && ctx.settings(followedSetting)) return true;
  if (!ctx.settings(enabledSetting)) return false;
  if (m.type === 'private') return true;
  if (alerted(m) || mentionedDirectly(m)) return true;
  if (mentioned(m) && channelSetting(ctx, m.stream_id, 'wildcard_mentions_notify')) return true;
  if (mentioned(m) && followed && ctx.settings('enable_followed_topic_wildcard_mentions_notify')) return true;
  return false;
}

export interface NotifyDecision {
  desktop: boolean;
  sound: boolean;
}

export function decideNotification(m: NotifyMessage, ctx: NotifyContext): NotifyDecision {
  if (!isNotifiable(m, ctx) || ctx.isViewing(m)) return { desktop: false, sound: false };
  const desktop = personalRules(m, ctx, 'enable_desktop_notifications', 'enable_followed_topic_desktop_notifications', 'desktop_notifications');
  const sound = ctx.settings('notification_sound') !== 'none' && personalRules(m, ctx, 'enable_sounds', 'enable_followed_topic_audible_notifications', 'audible_notifications');
  return { desktop, sound };
}

/** The notification's body: the message as text, or a stand-in where the person hides DM content. */
export function notificationBody(text: string, m: NotifyMessage, showDmContent: boolean, senderName: string, fallback: { dm: (name: string) => string; attachment: string }): string {
  if (m.type === 'private' && !showDmContent) return fallback.dm(senderName);
  const trimmed = text.replace(/\s+/g, ' ').trim();
  if (!trimmed) return fallback.attachment;
  return trimmed.length > 300 ? `${trimmed.slice(0, 299)}…` : trimmed;
}
