/** Per-user topic visibility: muted, unmuted, followed, set by hand or automatically on send. */
import type { Stream, Tx } from '@chat/db';
import { errors, isTopicVisibility, TOPIC_VISIBILITY, type TopicVisibility } from '@chat/contracts';
import { mutedTopicsList } from '@chat/wire';
import type { LoadedActor } from '../lib/caller';
import type { Services } from '../context';
import { recordEvent } from '@chat/bus';
import { normalizeTopic } from '../lib/text';
import { accessStream, findStream } from './streams-access';

/** automatically_*_policy values: 1 on participation, 2 on send, 3 on initiation, 4 never. */
const AUTO = { ON_PARTICIPATION: 1, ON_SEND: 2, ON_INITIATION: 3, NEVER: 4 } as const;

export async function currentVisibility(tx: Tx, userId: number, streamId: number, topic: string): Promise<number> {
  const row = await tx.userTopic.findUnique({ where: { userId_streamId_topicKey: { userId, streamId, topicKey: topic.toLowerCase() } } });
  return row?.visibilityPolicy ?? TOPIC_VISIBILITY.INHERIT;
}

/** Stores the policy and tells the user's clients. */
export async function doSetUserTopic(tx: Tx, realmId: number, userId: number, streamId: number, topic: string, policy: TopicVisibility): Promise<void> {
  const now = new Date();
  const key = { userId_streamId_topicKey: { userId, streamId, topicKey: topic.toLowerCase() } };
  if (policy === TOPIC_VISIBILITY.INHERIT) await tx.userTopic.deleteMany({ where: { userId, streamId, topicKey: topic.toLowerCase() } });
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
  /** Whether the sender muted the channel. */
  channelMuted: boolean;
}

/**
 * The sender's topic policy, whether the topic has an earlier message (lower(topic) matches the
 * (stream_id, lower(topic), id) index: one probe, however long the topic), and whether the sender
 * muted the channel, as columns of a SELECT, so a statement can read more beside them. Parameters:
 * $1 the user, $2 the channel (or the SQL given as `channel`), $3 the topic, $4 its key (lower case), $5 an id the earlier message
 * must precede, or null.
 */
export const topicFactsColumns = (channel = '$2') => `
  (SELECT visibility_policy FROM user_topics WHERE user_id = $1 AND stream_id = ${channel} AND topic_key = $4) AS current,
  EXISTS (SELECT 1 FROM messages WHERE stream_id = ${channel} AND lower(topic) = lower($3) AND ($5::int IS NULL OR id < $5)) AS earlier,
  COALESCE((SELECT is_muted FROM subscriptions WHERE user_id = $1 AND stream_id = ${channel}), false) AS muted`;
export const TOPIC_FACTS_COLUMNS = topicFactsColumns();

export interface TopicFactsRow {
  current: number | null;
  earlier: boolean;
  muted: boolean;
}

export function topicFactsOf(row: TopicFactsRow | undefined): TopicPolicyFacts {
  return { current: row?.current ?? TOPIC_VISIBILITY.INHERIT, isInitiator: !row?.earlier, channelMuted: !!row?.muted };
}

export async function topicPolicyFacts(db: Tx, userId: number, streamId: number, topic: string, beforeId?: number): Promise<TopicPolicyFacts> {
  const [row] = await db.$queryRawUnsafe<TopicFactsRow[]>(
    `SELECT ${TOPIC_FACTS_COLUMNS}`, userId, streamId, topic, topic.toLowerCase(), beforeId ?? null,
  );
  return topicFactsOf(row);
}

/**
 * The policy a send gives its sender's topic under their automatically_follow_topics_policy and
 * automatically_unmute_topics_in_muted_streams_policy, or null when it leaves it as it is.
 */
export function automaticTopicPolicy(settings: Record<string, unknown>, facts: TopicPolicyFacts): TopicVisibility | null {
  const { current, isInitiator } = facts;
  if (current === TOPIC_VISIBILITY.FOLLOWED) return null;
  if (policyApplies(Number(settings.automatically_follow_topics_policy ?? AUTO.ON_INITIATION), isInitiator)) return TOPIC_VISIBILITY.FOLLOWED;
  if (current === TOPIC_VISIBILITY.UNMUTED) return null;
  const muted = facts.channelMuted || current === TOPIC_VISIBILITY.MUTED;
  if (muted && policyApplies(Number(settings.automatically_unmute_topics_in_muted_streams_policy ?? AUTO.ON_INITIATION), isInitiator)) {
    return TOPIC_VISIBILITY.UNMUTED;
  }
  return null;
}

/**
 * After a send: the sender follows (or, in a muted channel, unmutes) the topic when their
 * policies say so (automaticTopicPolicy). Returns the new policy, or null when nothing changed.
 * `facts` read before the send save the transaction a round trip; without them they are read here.
 */
export async function applyAutomaticTopicPolicy(tx: Tx, actor: LoadedActor, stream: Stream, topic: string, messageId: number, facts?: TopicPolicyFacts): Promise<TopicVisibility | null> {
  const next = automaticTopicPolicy(actor.settings, facts ?? (await topicPolicyFacts(tx, actor.userId, stream.id, topic, messageId)));
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
    if ((await currentVisibility(tx, u.id, streamId, topic)) === TOPIC_VISIBILITY.FOLLOWED) continue;
    await doSetUserTopic(tx, realmId, u.id, streamId, topic, TOPIC_VISIBILITY.FOLLOWED);
  }
}

/** POST /user_topics. */
export async function doUpdateUserTopic(services: Services, actor: LoadedActor, streamId: number, rawTopic: string, policy: number): Promise<void> {
  if (!isTopicVisibility(policy)) throw errors.badRequest('Invalid visibility_policy');
  const topic = normalizeTopic(rawTopic);
  await accessStream(services.db, actor, streamId);
  await services.db.$transaction((tx) => doSetUserTopic(tx, actor.realmId, actor.userId, streamId, topic, policy));
}

/**
 * PATCH /users/me/subscriptions/muted_topics, the form older than POST /user_topics: `add` mutes
 * (the channel must be accessible), `remove` resets to inherit and works in any existing channel
 * of the realm, since a user may unmute a topic of a channel they have lost access to. Repeating
 * either succeeds, as the family's server does since it stored visibility policies.
 */
export async function doLegacyMuteTopic(services: Services, actor: LoadedActor, target: { id?: number; name?: string }, rawTopic: string, op: 'add' | 'remove'): Promise<void> {
  if (target.id === undefined && target.name === undefined) throw errors.missingArgument('stream_id');
  if (target.id !== undefined && target.name !== undefined) throw errors.incompatibleParameters(['stream_id', 'stream']);
  const found = await findStream(services.db, actor.realmId, target.id !== undefined ? { id: target.id } : { name: target.name! });
  const topic = normalizeTopic(rawTopic);
  if (op === 'remove') {
    if (!found) throw errors.badRequest('Topic is not muted');
    await services.db.$transaction((tx) => doSetUserTopic(tx, actor.realmId, actor.userId, found.id, topic, TOPIC_VISIBILITY.INHERIT));
    return;
  }
  const invalid = () => (target.id !== undefined ? errors.invalidStreamId() : errors.badRequest(`Invalid channel name '${target.name}'`));
  if (!found) throw invalid();
  try {
    await accessStream(services.db, actor, found.id);
  } catch {
    throw invalid();
  }
  await services.db.$transaction((tx) => doSetUserTopic(tx, actor.realmId, actor.userId, found.id, topic, TOPIC_VISIBILITY.MUTED));
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
  const next = follow === AUTO.ON_PARTICIPATION ? TOPIC_VISIBILITY.FOLLOWED : sub.isMuted && unmute === AUTO.ON_PARTICIPATION ? TOPIC_VISIBILITY.UNMUTED : null;
  if (next === null) return;
  const row = await tx.userTopic.findUnique({ where: { userId_streamId_topicKey: { userId: actor.userId, streamId, topicKey: topic.toLowerCase() } } });
  if (row && (row.visibilityPolicy === next || row.visibilityPolicy === TOPIC_VISIBILITY.FOLLOWED)) return;
  await doSetUserTopic(tx, actor.realmId, actor.userId, streamId, topic, next);
}
