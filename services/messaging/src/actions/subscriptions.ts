/** Subscribing and unsubscribing users, with the events each side sees. */
import type { Db, Stream, Tx } from '@chat/db';
import { loadStreamFacts, subscriptionObject } from '@chat/wire';
import type { LoadedActor } from '../lib/caller';
import { recordEvent } from '@chat/bus';
import { activeSubscriberIds, streamViewerIds } from './stream-dicts';

/** Color of a user's n-th subscription, from the palette clients of this API use. */
const STREAM_COLORS = [
  '#76ce90', '#fae589', '#a6c7e5', '#e79ab5', '#bfd56f', '#f4ae55', '#b0a5fd', '#addfe5',
  '#f5ce6e', '#c2726a', '#94c849', '#bd86e5', '#ee7e4a', '#a6dcbf', '#95a5fd', '#53a063',
  '#9987e1', '#e4523d', '#c2c2c2', '#4f8de4', '#c6a8ad', '#e7cc4d', '#c8bebf', '#a47462',
];

/**
 * Subscribes `userIds` to `stream` (reactivating old subscriptions). Each new subscriber gets a
 * `subscription` add event; everyone else who may see the channel gets `peer_add`.
 * Returns the ids actually added. `kept`: the service's pool, for this replica's kept traffic
 * counts (loadStreamFacts); `color`: the colour the request asked for (already checked).
 */
export async function doSubscribeUsers(tx: Tx, actor: LoadedActor, stream: Stream, userIds: number[], kept?: Db, color?: string): Promise<number[]> {
  const existing = await tx.subscription.findMany({ where: { streamId: stream.id, userId: { in: userIds } } });
  const already = new Set(existing.filter((s) => s.active).map((s) => s.userId));
  const added = [...new Set(userIds)].filter((id) => !already.has(id));
  if (!added.length) return [];
  for (const userId of added) {
    // A colour asked for with the subscription wins over the palette, for new and renewed ones alike.
    const picked = color ?? STREAM_COLORS[(await tx.subscription.count({ where: { userId } })) % STREAM_COLORS.length];
    await tx.subscription.upsert({
      where: { userId_streamId: { userId, streamId: stream.id } },
      create: { userId, streamId: stream.id, color: picked },
      update: color === undefined ? { active: true } : { active: true, color },
    });
  }
  const subscribers = await activeSubscriberIds(tx, stream.id);
  // The channel's facts are the same in every new subscriber's object: read once.
  const facts = (await loadStreamFacts(tx, [stream], undefined, kept)).get(stream.id)!;
  for (const userId of added) {
    const sub = await tx.subscription.findUniqueOrThrow({ where: { userId_streamId: { userId, streamId: stream.id } } });
    await recordEvent(tx, {
      realmId: actor.realmId,
      type: 'subscription',
      users: [userId],
      event: { type: 'subscription', op: 'add', subscriptions: [subscriptionObject(stream, sub, facts, { subscribers })] },
    });
  }
  const peers = (await streamViewerIds(tx, stream, [])).filter((id) => !added.includes(id));
  if (peers.length) {
    await recordEvent(tx, {
      realmId: actor.realmId,
      type: 'subscription',
      users: peers,
      event: { type: 'subscription', op: 'peer_add', stream_ids: [stream.id], user_ids: added },
    });
  }
  return added;
}

/** Ends the subscriptions of `userIds`; returns who was actually subscribed. */
export async function doUnsubscribeUsers(tx: Tx, actor: LoadedActor, stream: Stream, userIds: number[]): Promise<number[]> {
  const subs = await tx.subscription.findMany({ where: { streamId: stream.id, userId: { in: userIds }, active: true } });
  const removed = subs.map((s) => s.userId);
  if (!removed.length) return [];
  await tx.subscription.updateMany({ where: { streamId: stream.id, userId: { in: removed } }, data: { active: false } });
  for (const userId of removed) {
    await recordEvent(tx, {
      realmId: actor.realmId,
      type: 'subscription',
      users: [userId],
      event: { type: 'subscription', op: 'remove', subscriptions: [{ name: stream.name, stream_id: stream.id }] },
    });
  }
  const peers = (await streamViewerIds(tx, stream, [])).filter((id) => !removed.includes(id));
  if (peers.length) {
    await recordEvent(tx, {
      realmId: actor.realmId,
      type: 'subscription',
      users: peers,
      event: { type: 'subscription', op: 'peer_remove', stream_ids: [stream.id], user_ids: removed },
    });
  }
  return removed;
}
