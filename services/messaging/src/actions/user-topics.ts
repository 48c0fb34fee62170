/** Per-user topic visibility: muted, unmuted, followed, set by hand or automatically on send. */
import type { Stream, Tx } from '@chat/db';
import { errors } from '@chat/contracts';
import { mutedTopicsList } from '@chat/wire';
import type { LoadedActor, Deps } from '../lib/context';
import { recordEvent } from '../lib/outbox';
import { normalizeTopic } from '../lib/text';
import { accessStream, findStream } from './streams-access';

export const VISIBILITY = { INHERIT: 0, MUTED: 1, UNMUTED: 2, FOLLOWED: 3 } as const;
/** automatically_*_policy values: 1 on participation, 2 on send, 3 on initiation, 4 never. */
const AUTO = { ON_PARTICIPATION: 1, ON_SEND: 2, ON_INITIATION: 3, NEVER: 4 } as const;

export async function currentVisibility(tx: Tx, userId: number, streamId: number, topic: string): Promise<number> {
  const row = await tx.userTopic.findUnique({ where: { userId_streamId_topicKey: { userId, streamId, topicKey: topic.toLowerCase() } } });
  return row?.visibilityPolicy ?? VISIBILITY.INHERIT;
}

/** Stores the policy and tells the user's clients. */
export async function doSetUserTopic(tx: Tx, realmId: number, userId: number, streamId: number, topic: string, policy: number): Promise<void> {
  const now = new Date();
  const key = { userId_streamId_topicKey: { userId, streamId, topicKey: topic.toLowerCase() } };
  if (policy === VISIBILITY.INHERIT) await tx.userTopic.deleteMany({ where: { userId, streamId, topicKey: topic.toLowerCase() } });
  else {
    await tx.userTopic.upsert({
      where: key,
      create: { realmId, userId, streamId, topicName: topic, topicKey: topic.toLowerCase(), visibilityPolicy: policy, lastUpdated: now },
      update: { topicName: topic, visibilityPolicy: policy, lastUpdated: now },
    });
  }
  // The older muted_topics event first, with the whole list, for clients that predate user_topic.
  await recordEvent(tx, { realmId, type: 'muted_topics', users: [userId], event: { type: 'muted_topics', muted_topics: await mutedTopicsList(tx, userId) } });
  await recordEvent(tx, {
    realmId,
    type: 'user_topic',
    users: [userId],
    event: { type: 'user_topic', stream_id: streamId, topic_name: topic, last_updated: Math.floor(now.getTime() / 1000), visibility_policy: policy },
  });
}

function policyApplies(policy: number, isInitiator: boolean): boolean {
  if (policy === AUTO.ON_SEND || policy === AUTO.ON_PARTICIPATION) return true;
  return policy === AUTO.ON_INITIATION && isInitiator;
}

/** What the automatic topic policies need to know of a send, readable before its transaction. */
export interface TopicPolicyFacts {
  /** The sender's visibility policy for the topic now. */
  current: number;
  /** Whether the topic has no message yet: the sender starts it. */
  isInitiator: boolean;
}

/**
 * Read before the message exists. Two first sends racing into a new topic may both count as
 * initiators; each then follows it, which is what either would have done alone.
 */
export async function topicPolicyFacts(db: Tx, userId: number, streamId: number, topic: string, beforeId?: number): Promise<TopicPolicyFacts> {
  const [current, earlier] = await Promise.all([
    currentVisibility(db, userId, streamId, topic),
    // lower(topic) matches the (stream_id, lower(topic), id) index: one probe, however long the topic.
    db.$queryRawUnsafe<Array<{ one: number }>>(
      `SELECT 1 AS one FROM messages WHERE stream_id = $1 AND lower(topic) = lower($2) AND ($3::int IS NULL OR id < $3) LIMIT 1`,
      streamId,
      topic,
      beforeId ?? null,
    ),
  ]);
  return { current, isInitiator: earlier.length === 0 };
}

/**
 * After a send: the sender follows (or, in a muted channel, unmutes) the topic when their
 * automatically_follow_topics_policy / automatically_unmute_topics_in_muted_streams_policy say
 * so. Returns the new policy, or null when nothing changed. `facts` read before the send save
 * the transaction two round trips; without them they are read here.
 */
export async function applyAutomaticTopicPolicy(tx: Tx, actor: LoadedActor, stream: Stream, topic: string, messageId: number, facts?: TopicPolicyFacts): Promise<number | null> {
  const { current, isInitiator } = facts ?? (await topicPolicyFacts(tx, actor.userId, stream.id, topic, messageId));
  if (current === VISIBILITY.FOLLOWED) return null;
  const settings = actor.settings;
  let next: number | null = null;
  if (policyApplies(Number(settings.automatically_follow_topics_policy ?? AUTO.ON_INITIATION), isInitiator)) {
    next = VISIBILITY.FOLLOWED;
  } else if (current !== VISIBILITY.UNMUTED) {
    const sub = await tx.subscription.findUnique({ where: { userId_streamId: { userId: actor.userId, streamId: stream.id } } });
    const muted = !!sub?.isMuted || current === VISIBILITY.MUTED;
    if (muted && policyApplies(Number(settings.automatically_unmute_topics_in_muted_streams_policy ?? AUTO.ON_INITIATION), isInitiator)) {
      next = VISIBILITY.UNMUTED;
    }
  }
  if (next === null) return null;
  await doSetUserTopic(tx, actor.realmId, actor.userId, stream.id, topic, next);
  return next;
}

/** Mentioned users who asked to follow topics where they are mentioned. */
export async function followWhereMentioned(tx: Tx, realmId: number, streamId: number, topic: string, userIds: number[]): Promise<void> {
  if (!userIds.length) return;
  const users = await tx.user.findMany({ where: { id: { in: userIds } }, select: { id: true, settings: true } });
  for (const u of users) {
    const settings = (u.settings ?? {}) as Record<string, unknown>;
    if (settings.automatically_follow_topics_where_mentioned === false) continue;
    if ((await currentVisibility(tx, u.id, streamId, topic)) === VISIBILITY.FOLLOWED) continue;
    await doSetUserTopic(tx, realmId, u.id, streamId, topic, VISIBILITY.FOLLOWED);
  }
}

/** POST /user_topics. */
export async function doUpdateUserTopic(deps: Deps, actor: LoadedActor, streamId: number, rawTopic: string, policy: number): Promise<void> {
  if (!Object.values(VISIBILITY).includes(policy as 0)) throw errors.badRequest('Invalid visibility_policy');
  const topic = normalizeTopic(rawTopic);
  await accessStream(deps.db, actor, streamId);
  await deps.db.$transaction((tx) => doSetUserTopic(tx, actor.realmId, actor.userId, streamId, topic, policy));
}

/**
 * PATCH /users/me/subscriptions/muted_topics, the form older than POST /user_topics: `add` mutes
 * (the channel must be accessible), `remove` resets to inherit and works in any existing channel
 * of the realm, since a user may unmute a topic of a channel they have lost access to. Repeating
 * either succeeds, as the family's server does since it stored visibility policies.
 */
export async function doLegacyMuteTopic(deps: Deps, actor: LoadedActor, target: { id?: number; name?: string }, rawTopic: string, op: 'add' | 'remove'): Promise<void> {
  if (target.id === undefined && target.name === undefined) throw errors.missingArgument('stream_id');
  if (target.id !== undefined && target.name !== undefined) throw errors.incompatibleParameters(['stream_id', 'stream']);
  const found = await findStream(deps.db, actor.realmId, target.id !== undefined ? { id: target.id } : { name: target.name! });
  const topic = normalizeTopic(rawTopic);
  if (op === 'remove') {
    if (!found) throw errors.badRequest('Topic is not muted');
    await deps.db.$transaction((tx) => doSetUserTopic(tx, actor.realmId, actor.userId, found.id, topic, VISIBILITY.INHERIT));
    return;
  }
  const invalid = () => (target.id !== undefined ? errors.invalidStreamId() : errors.badRequest(`Invalid channel name '${target.name}'`));
  if (!found) throw invalid();
  try {
    await accessStream(deps.db, actor, found.id);
  } catch {
    throw invalid();
  }
  await deps.db.$transaction((tx) => doSetUserTopic(tx, actor.realmId, actor.userId, found.id, topic, VISIBILITY.MUTED));
}

/**
 * Participating in a topic other than by sending (a submessage, such as a poll vote): the
 * participant follows the topic, or unmutes it in a muted channel, when their automatic policy
 * is "on participation". The automatic policies only raise visibility: a followed topic stays.
 */
export async function applyParticipationTopicPolicy(tx: Tx, actor: LoadedActor, streamId: number, topic: string): Promise<void> {
  if (actor.isBot) return;
  const follow = Number(actor.settings.automatically_follow_topics_policy ?? AUTO.ON_INITIATION);
  const unmute = Number(actor.settings.automatically_unmute_topics_in_muted_streams_policy ?? AUTO.ON_INITIATION);
  if (follow !== AUTO.ON_PARTICIPATION && unmute !== AUTO.ON_PARTICIPATION) return;
  const sub = await tx.subscription.findUnique({ where: { userId_streamId: { userId: actor.userId, streamId } } });
  if (!sub?.active) return;
  const next = follow === AUTO.ON_PARTICIPATION ? VISIBILITY.FOLLOWED : sub.isMuted && unmute === AUTO.ON_PARTICIPATION ? VISIBILITY.UNMUTED : null;
  if (next === null) return;
  const row = await tx.userTopic.findUnique({ where: { userId_streamId_topicKey: { userId: actor.userId, streamId, topicKey: topic.toLowerCase() } } });
  if (row && (row.visibilityPolicy === next || row.visibilityPolicy === VISIBILITY.FOLLOWED)) return;
  await doSetUserTopic(tx, actor.realmId, actor.userId, streamId, topic, next);
}
