/**
 * What is muted, by the family's rules: a channel's own mute (subscription is_muted), a topic's
 * visibility policy (user_topics: muted 1, unmuted 2, followed 3), where an unmuted or followed
 * topic of a muted channel shows, and a muted topic of an unmuted channel does not. Pure; the
 * unread `count` of the snapshot leaves muted messages out, as the server counts it.
 *
 * Exports: TOPIC_POLICY, topicPolicy, isChannelMuted, isTopicMuted, isTopicFollowed,
 * isUserMuted, unmutedUnreadCount.
 */
import type { RegisterState } from '@chat/client';

export const TOPIC_POLICY = { INHERIT: 0, MUTED: 1, UNMUTED: 2, FOLLOWED: 3 } as const;

export function topicPolicy(reg: RegisterState, streamId: number, topic: string): number {
  const name = topic.toLowerCase();
  return (reg.user_topics ?? []).find((t) => t.stream_id === streamId && t.topic_name.toLowerCase() === name)?.visibility_policy ?? TOPIC_POLICY.INHERIT;
}

export function isChannelMuted(reg: RegisterState, streamId: number): boolean {
  return !!reg.subscriptions.find((s) => s.stream_id === streamId)?.is_muted;
}

export function isTopicMuted(reg: RegisterState, streamId: number, topic: string): boolean {
  const policy = topicPolicy(reg, streamId, topic);
  if (policy === TOPIC_POLICY.UNMUTED || policy === TOPIC_POLICY.FOLLOWED) return false;
  return policy === TOPIC_POLICY.MUTED || isChannelMuted(reg, streamId);
}

export function isTopicFollowed(reg: RegisterState, streamId: number, topic: string): boolean {
  return topicPolicy(reg, streamId, topic) === TOPIC_POLICY.FOLLOWED;
}

export function isUserMuted(reg: RegisterState, userId: number): boolean {
  return (reg.muted_users ?? []).some((m) => m.id === userId);
}

/** The snapshot's unread `count`: every direct message, and channel messages not muted. */
export function unmutedUnreadCount(reg: RegisterState): number {
  const u = reg.unread_msgs;
  // Indexed once: this runs after every event that touches the counts.
  const policies = new Map((reg.user_topics ?? []).map((t) => [`${t.stream_id}:${t.topic_name.toLowerCase()}`, t.visibility_policy]));
  const mutedChannels = new Set(reg.subscriptions.filter((x) => x.is_muted).map((x) => x.stream_id));
  let n = 0;
  for (const e of u.pms) n += e.unread_message_ids.length;
  for (const e of u.huddles) n += e.unread_message_ids.length;
  for (const e of u.streams) {
    const policy = policies.get(`${e.stream_id}:${e.topic.toLowerCase()}`) ?? TOPIC_POLICY.INHERIT;
    const muted = policy === TOPIC_POLICY.MUTED || (mutedChannels.has(e.stream_id) && policy !== TOPIC_POLICY.UNMUTED && policy !== TOPIC_POLICY.FOLLOWED);
    if (!muted) n += e.unread_message_ids.length;
  }
  return n;
}
