/**
 * The channel and subscription objects clients receive (built by @chat/wire from the facts
 * gathered here), and who may see a channel.
 */
import type { Db, Stream, Subscription, Tx } from '@chat/db';
import type { StreamObject, SubscriptionObject } from '@chat/contracts';
import { channelSeenUpToRole } from '@chat/realm';
import { loadStreamFacts, streamObject, subscriptionObject } from '@chat/wire';

/**
 * Channel objects of `streams` (all of one realm), in their order. `kept`, the service's pool:
 * traffic from the counts this replica keeps (loadStreamFacts); every caller that has it passes it.
 */
export async function streamDicts(tx: Tx, streams: Stream[], kept?: Db): Promise<StreamObject[]> {
  const facts = await loadStreamFacts(tx, streams, undefined, kept);
  return streams.map((s) => streamObject(s, facts.get(s.id)!));
}

export async function streamDict(tx: Tx, s: Stream, kept?: Db): Promise<StreamObject> {
  return (await streamDicts(tx, [s], kept))[0]!;
}

/** Subscription objects of one user's subscriptions (all of one realm), with subscriber lists when given. */
export async function subscriptionDicts(
  tx: Tx,
  subs: Array<{ stream: Stream; sub: Subscription; subscribers?: number[] }>,
  kept?: Db,
): Promise<SubscriptionObject[]> {
  const facts = await loadStreamFacts(tx, subs.map((x) => x.stream), undefined, kept);
  return subs.map(({ stream, sub, subscribers }) =>
    subscriptionObject(stream, sub, facts.get(stream.id)!, subscribers ? { subscribers } : undefined),
  );
}

export async function activeSubscriberIds(tx: Tx, streamId: number): Promise<number[]> {
  return (await activeSubscriberIdsOf(tx, [streamId])).get(streamId)!;
}

/** Each channel's active subscribers who are active people, ids ascending, for many channels in one query (every id present). */
export async function activeSubscriberIdsOf(tx: Tx, streamIds: number[]): Promise<Map<number, number[]>> {
  const out = new Map(streamIds.map((id) => [id, [] as number[]]));
  if (!streamIds.length) return out;
  const rows = await tx.subscription.findMany({
    where: { streamId: { in: streamIds }, active: true, user: { isActive: true } },
    select: { streamId: true, userId: true },
    orderBy: { userId: 'asc' },
  });
  for (const r of rows) out.get(r.streamId)!.push(r.userId);
  return out;
}

/**
 * Users who may see a channel exists (@chat/realm channelAccess, read as rows through its twin
 * channelSeenUpToRole). `extra` are users about to be subscribed in the same transaction.
 */
export async function streamViewerIds(tx: Tx, s: Stream, extra: number[]): Promise<number[]> {
  const subscribers = await activeSubscriberIds(tx, s.id);
  const byRole = await tx.user.findMany({
    where: { realmId: s.realmId, isActive: true, role: { lte: channelSeenUpToRole(s) } },
    select: { id: true },
  });
  return [...new Set([...byRole.map((u) => u.id), ...subscribers, ...extra])].sort((a, b) => a - b);
}
