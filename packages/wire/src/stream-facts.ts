/**
 * The one reader in this package: what channel objects need besides their rows. Every service
 * that builds channel objects reads these counts here, so that "subscriber", "recent" and
 * "traffic" mean the same in events, listings and register.
 */
import type { Db, Stream, Tx } from '@chat/db';
import { TRAFFIC_WINDOW_DAYS, type StreamFacts } from './streams';
import { channelTraffic } from './traffic';

/**
 * Facts of `streams` (all of one realm) by channel id, in a fixed number of queries whatever the
 * number of channels. With `kept` (the process's pool), traffic is the count this replica keeps
 * per realm (channelTraffic, traffic.ts) instead of a count of every message of the last four
 * weeks of those channels, which takes a busy channel's history a large part of a second.
 */
export async function loadStreamFacts(db: Db | Tx, streams: Stream[], now = new Date(), kept?: Db): Promise<Map<number, StreamFacts>> {
  if (!streams.length) return new Map();
  const realmId = streams[0]!.realmId;
  const ids = streams.map((s) => s.id);
  const since = new Date(now.getTime() - TRAFFIC_WINDOW_DAYS * 86_400_000);
  const [groups, counts, last, recent] = await Promise.all([
    db.userGroup.findMany({ where: { realmId, isSystemGroup: true }, select: { id: true, name: true } }),
    db.subscription.groupBy({ by: ['streamId'], where: { streamId: { in: ids }, active: true, user: { isActive: true } }, _count: { _all: true } }),
    // Each channel's newest message, one backward index step each (register reads it the same
    // way, services/events/src/state/register-rows.ts); max(date_sent) read the whole history.
    db.$queryRawUnsafe<Array<{ stream_id: number; date_sent: Date }>>(
      `SELECT s.id AS stream_id, l.date_sent FROM unnest($1::int[]) AS s(id)
         CROSS JOIN LATERAL (SELECT m.date_sent FROM messages m WHERE m.stream_id = s.id ORDER BY m.id DESC LIMIT 1) l`,
      ids,
    ),
    kept
      ? channelTraffic(kept, realmId)
      : db.message.groupBy({ by: ['streamId'], where: { streamId: { in: ids }, dateSent: { gte: since } }, _count: { _all: true } })
        .then((rows) => new Map(rows.map((r) => [r.streamId!, r._count._all]))),
  ]);
  return streamFactsFrom(streams, {
    systemGroups: new Map(groups.map((g) => [g.name, g.id])),
    subscriberCounts: new Map(counts.map((c) => [c.streamId!, c._count._all])),
    lastMessageAt: new Map(last.map((r) => [r.stream_id, r.date_sent])),
    recentCounts: recent,
  }, now);
}

/** What loadStreamFacts reads, by channel id (a channel missing from a map has none). */
export interface StreamFactRows {
  systemGroups: Map<string, number>;
  subscriberCounts: Map<number, number>;
  lastMessageAt: Map<number, Date>;
  /** Messages of the last TRAFFIC_WINDOW_DAYS days; null when not known. */
  recentCounts: Map<number, number> | null;
}

/** loadStreamFacts from rows already read. */
export function streamFactsFrom(streams: Array<{ id: number }>, rows: StreamFactRows, now = new Date()): Map<number, StreamFacts> {
  return new Map(
    streams.map((s) => [
      s.id,
      {
        systemGroups: rows.systemGroups,
        subscriberCount: rows.subscriberCounts.get(s.id) ?? 0,
        lastMessageAt: rows.lastMessageAt.get(s.id) ?? null,
        messagesLastFourWeeks: rows.recentCounts ? (rows.recentCounts.get(s.id) ?? 0) : null,
        now,
      },
    ]),
  );
}
