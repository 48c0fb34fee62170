import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { Keyspace } from './keys';
import { crossSlot, masters } from './redis';

/** An outbox row as the relay reads it. `payload` stays JSON text: the relay never parses it. */
export interface OutboxRow {
  id: string;
  realmId: number;
  type: string;
  payload: string;
  /** Text form of created_at; identifies the row together with its id (see PUBLISH_SCRIPT). */
  createdAt: string;
}

export interface PublishOptions {
  /** Approximate MAXLEN per partition stream; null leaves streams untrimmed. */
  streamMaxLen: number | null;
  /** Lifetime of the per-row published marker. */
  markerTtlSeconds: number;
}

export interface PublishResult {
  appended: number;
  /** Rows a previous relay had already appended (it died before deleting them). */
  skipped: number;
}

/**
 * Appends one partition's rows to its stream, skipping rows already there, atomically, so that
 * a relay that dies between XADD and DELETE cannot make its successor publish a row twice.
 * One call per partition: every key it touches shares the partition's hash slot, and a failure
 * stops the script at that row, so the rows after it are never appended ahead of it.
 *
 * A marker stores its row's created_at rather than a flag: outbox ids restart when a database
 * is recreated (dev resets, tests), and a flag would then swallow new rows that reuse an id
 * seen within the TTL.
 *
 * KEYS: stream, then one marker per row. ARGV: ttl seconds, maxlen ('' = none), then per row
 * created_at, outbox id, realm id, type, payload. Returns how many rows it appended.
 */
const PUBLISH_SCRIPT = `
local ttl, maxlen = ARGV[1], ARGV[2]
local appended = 0
for i = 2, #KEYS do
  local a = 3 + (i - 2) * 5
  if redis.call('GET', KEYS[i]) ~= ARGV[a] then
    local fields = {'outbox_id', ARGV[a + 1], 'realm_id', ARGV[a + 2], 'type', ARGV[a + 3], 'payload', ARGV[a + 4]}
    if maxlen == '' then
      redis.call('XADD', KEYS[1], '*', unpack(fields))
    else
      redis.call('XADD', KEYS[1], 'MAXLEN', '~', maxlen, '*', unpack(fields))
    end
    redis.call('SET', KEYS[i], ARGV[a], 'EX', ttl)
    appended = appended + 1
  end
end
return appended
`;

const PUBLISH_SHA = createHash('sha1').update(PUBLISH_SCRIPT).digest('hex');

function isNoScript(err: unknown): boolean {
  return err instanceof Error && err.message.startsWith('NOSCRIPT');
}

function byPartition(keys: Keyspace, rows: OutboxRow[]): Map<number, OutboxRow[]> {
  const groups = new Map<number, OutboxRow[]>();
  for (const row of rows) {
    const p = keys.partitionOf(row.realmId);
    const group = groups.get(p);
    if (group) group.push(row);
    else groups.set(p, [row]);
  }
  return groups;
}

/**
 * Appends `rows` to their partition streams in one round trip, each partition's rows in the
 * order given. Throws if any partition failed; the caller then keeps every row and retries the
 * batch, which the markers make safe.
 */
export async function publishRows(
  redis: Redis,
  keys: Keyspace,
  rows: OutboxRow[],
  opts: PublishOptions,
): Promise<PublishResult> {
  if (rows.length === 0) return { appended: 0, skipped: 0 };
  const groups = byPartition(keys, rows);
  // One script call per partition: on a cluster each goes to its partition's node.
  const run = () =>
    crossSlot(
      redis,
      [...groups].map(([partition, group]) => (c: Redis) => {
        const args: (string | number)[] = [keys.stream(partition)];
        for (const row of group) args.push(keys.publishedMarker(partition, row.id));
        args.push(opts.markerTtlSeconds, opts.streamMaxLen ?? '');
        for (const row of group) args.push(row.createdAt, row.id, row.realmId, row.type, row.payload);
        return c.evalsha(PUBLISH_SHA, group.length + 1, ...args);
      }),
    );

  let results = await run();
  // After a Redis restart or SCRIPT FLUSH every call fails this way before touching anything;
  // on a cluster, scripts live per node, so load it on every master.
  if (results.some(([err]) => isNoScript(err))) {
    await Promise.all(masters(redis).map((node) => node.script('LOAD', PUBLISH_SCRIPT)));
    results = await run();
  }
  let appended = 0;
  for (const [err, reply] of results) {
    if (err) throw err;
    appended += Number(reply);
  }
  return { appended, skipped: rows.length - appended };
}
