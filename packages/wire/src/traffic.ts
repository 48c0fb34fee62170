/**
 * Each channel's messages of the last TRAFFIC_WINDOW_DAYS days (stream_weekly_traffic), kept per
 * replica and realm and recounted in the background once older than TRAFFIC_MAX_AGE_MS.
 *
 * Counting reads every message of the window: 0.4 s for a realm with a million recent messages,
 * which register and the channel listings and events must not pay each time. The figure is a
 * rough weekly rate that the API family's own server refreshes once a day; here it is at most a
 * few minutes old, and a reader never waits for a recount, only for a realm's first count on a
 * replica, and then at most FIRST_COUNT_WAIT_MS: past that it gives null ("not known yet", which
 * clients show as no figure) and the count lands for the readers after it.
 */
import { rawQuery, type Db } from '@chat/db';
import { TRAFFIC_WINDOW_DAYS } from './streams';

const TRAFFIC_MAX_AGE_MS = 5 * 60_000;
const FIRST_COUNT_WAIT_MS = 100;
/** Realms kept per replica; the least recently counted goes first beyond this. */
const MAX_REALMS = 256;

const TRAFFIC_SQL = `
  SELECT m.stream_id, count(*)::int AS n
    FROM messages m JOIN streams s ON s.id = m.stream_id
   WHERE s.realm_id = $1 AND m.date_sent >= (now() AT TIME ZONE 'UTC') - interval '${TRAFFIC_WINDOW_DAYS} days'
   GROUP BY m.stream_id`;

interface Counted {
  at: number;
  counts: Map<number, number> | null;
  recount: Promise<void> | null;
}

const stores = new WeakMap<Db, Map<number, Counted>>();

function recount(db: Db, store: Map<number, Counted>, realmId: number, entry: Counted): Promise<void> {
  entry.recount ??= rawQuery<{ stream_id: number; n: number }>(db, TRAFFIC_SQL, [realmId], 'channel_traffic')
    .then((rows) => {
      entry.counts = new Map(rows.map((r) => [r.stream_id, r.n]));
      entry.at = Date.now();
      store.delete(realmId);
      store.set(realmId, entry);
      if (store.size > MAX_REALMS) store.delete(store.keys().next().value!);
    })
    // A failed count is tried again by the next register; the kept one, if any, stays meanwhile.
    .catch(() => undefined)
    .finally(() => {
      entry.recount = null;
    });
  return entry.recount;
}

/** The realm's channel traffic by channel id, or null while its first count is not in. */
export async function channelTraffic(db: Db, realmId: number, maxAgeMs = TRAFFIC_MAX_AGE_MS): Promise<Map<number, number> | null> {
  let store = stores.get(db);
  if (!store) stores.set(db, (store = new Map()));
  let entry = store.get(realmId);
  if (!entry) store.set(realmId, (entry = { at: 0, counts: null, recount: null }));
  if (entry.counts === null) {
    await Promise.race([recount(db, store, realmId, entry), new Promise((r) => setTimeout(r, FIRST_COUNT_WAIT_MS).unref())]);
  } else if (Date.now() - entry.at > maxAgeMs) {
    void recount(db, store, realmId, entry);
  }
  return entry.counts;
}
