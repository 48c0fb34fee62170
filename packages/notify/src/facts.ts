import { TOPIC_VISIBILITY } from '@chat/contracts';
import type { Db } from '@chat/db';
import type { RecipientFacts } from './triggers';

/** The trigger rules' names for the stored topic visibility policies (INHERIT has no row). */
const POLICIES: Record<number, RecipientFacts['topicPolicy']> = {
  [TOPIC_VISIBILITY.MUTED]: 'muted',
  [TOPIC_VISIBILITY.UNMUTED]: 'unmuted',
  [TOPIC_VISIBILITY.FOLLOWED]: 'followed',
};

export type SubscriptionFacts = NonNullable<RecipientFacts['subscription']>;

/** The notification columns of the users' active subscriptions to one channel. */
export async function subscriptionsOf(db: Db, streamId: number, userIds: number[]): Promise<Map<number, SubscriptionFacts>> {
  const rows = await db.subscription.findMany({
    where: { streamId, userId: { in: userIds }, active: true },
    select: { userId: true, pushNotifications: true, emailNotifications: true, wildcardMentionsNotify: true, isMuted: true },
  });
  return new Map(rows.map((r) => [r.userId, r]));
}

/**
 * Followed and muted topics live in the messaging service's user_topics table (topic_key is
 * the lower-cased topic). A failing read (an older schema) counts as "no topic policies" rather
 * than holding up every notification.
 */
export async function topicPolicies(db: Db, streamId: number, topic: string, userIds: number[]): Promise<Map<number, RecipientFacts['topicPolicy']>> {
  const out = new Map<number, RecipientFacts['topicPolicy']>();
  try {
    const rows = await db.$queryRawUnsafe<Array<{ user_id: number; visibility_policy: number }>>(
      `SELECT user_id, visibility_policy FROM user_topics
       WHERE stream_id = $1 AND topic_key = lower($2) AND user_id = ANY($3::int[])`,
      streamId,
      topic,
      userIds,
    );
    for (const r of rows) if (POLICIES[r.visibility_policy]) out.set(r.user_id, POLICIES[r.visibility_policy]!);
  } catch {
    // Without the table, no user follows or mutes any topic.
  }
  return out;
}

/** A message as the notification rules see it: where it went, and each recipient's flags. */
export interface NotifiedMessage {
  /** Null for a direct message. */
  streamId: number | null;
  topic: string;
  flagsOf: (userId: number) => string[];
}

/**
 * What the trigger rules (pushTrigger, emailTrigger) read about each recipient of a message, for
 * the active, human people among `userIds` in the realm: their settings, flags, subscription
 * and topic policy. Push and missed-message mail both load them this way.
 */
export async function recipientFacts(db: Db, realmId: number, message: NotifiedMessage, userIds: number[]): Promise<RecipientFacts[]> {
  if (!userIds.length) return [];
  const users = await db.user.findMany({
    where: { id: { in: userIds }, realmId, isActive: true, isBot: false },
    select: { id: true, settings: true },
  });
  if (!users.length) return [];
  const ids = users.map((u) => u.id);
  const { streamId } = message;
  const subs = streamId === null ? new Map<number, SubscriptionFacts>() : await subscriptionsOf(db, streamId, ids);
  const policies = streamId === null ? new Map<number, RecipientFacts['topicPolicy']>() : await topicPolicies(db, streamId, message.topic, ids);
  return users.map((user) => ({
    userId: user.id,
    flags: message.flagsOf(user.id),
    settings: (user.settings ?? {}) as RecipientFacts['settings'],
    isDirect: streamId === null,
    subscription: subs.get(user.id) ?? null,
    topicPolicy: policies.get(user.id) ?? null,
  }));
}
