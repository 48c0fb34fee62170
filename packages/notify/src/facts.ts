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
