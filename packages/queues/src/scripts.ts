/**
 * Lua scripts on one queue. Every key of a queue shares the hash tag {q:<id>}, so each script
 * touches a single slot and works unchanged on Redis Cluster.
 *
 * KEYS[1] meta hash, KEYS[2] events sorted set (score = event id, member = "<id>|<json>").
 * Queue lifetime is the keys' TTL: every client touch pushes it out by the idle timeout, and
 * Redis itself discards an idle queue exactly once, whatever the number of replicas.
 */

/**
 * Largest wake-up that carries its events (bytes). A waiting long-poll is answered straight from
 * such a wake-up, without reading the queue back; a larger append publishes only its last id,
 * and the poll fetches. Bounded because on a Redis Cluster every PUBLISH crosses the cluster bus
 * to every node.
 */
export const WAKE_PAYLOAD_MAX = 16 * 1024;

/**
 * One queue's append, shared by APPEND and APPEND_BATCH: meta and events keys, wake channel,
 * source field ('' = none), source position, then the event JSON texts as a Lua list.
 */
const APPEND_ONE = `
local function append(meta, zset, channel, field, position, events)
  -- One read for the queue's existence (user_id is always set), its counter and the source's
  -- last position, and one write for the new ones: every redis.call costs the script as much as
  -- the small command it runs, and a fan-out runs this for every recipient queue.
  local now
  if field ~= '' then now = redis.call('HMGET', meta, 'user_id', 'seq', field)
  else now = redis.call('HMGET', meta, 'user_id', 'seq') end
  if not now[1] then return -1 end
  if field ~= '' and now[3] then
    local lm, ls = string.match(now[3], '^(%d+)-(%d+)$')
    local nm, ns = string.match(position, '^(%d+)-(%d+)$')
    lm, ls, nm, ns = tonumber(lm), tonumber(ls), tonumber(nm), tonumber(ns)
    if nm < lm or (nm == lm and ns <= ls) then return -2 end
  end
  local id = tonumber(now[2])
  -- A queue without a counter counts from 0, as HINCRBY would.
  local next = id or 0
  local members, size = {}, 0
  for i = 1, #events do
    next = next + 1
    local member = next .. '|' .. events[i]
    redis.call('ZADD', zset, next, member)
    members[#members + 1] = member
    size = size + #member + 1
  end
  local changed = {}
  if field ~= '' then changed = {field, position} end
  if #members > 0 then
    id = next
    changed[#changed + 1] = 'seq'
    changed[#changed + 1] = id
  end
  if #changed > 0 then redis.call('HSET', meta, unpack(changed)) end
  local ttl = redis.call('PTTL', meta)
  if ttl > 0 then redis.call('PEXPIRE', zset, ttl) end
  if #members > 0 then
    if size <= ${WAKE_PAYLOAD_MAX} then redis.call('PUBLISH', channel, table.concat(members, '\\n'))
    else redis.call('PUBLISH', channel, id) end
  end
  return id
end
`;

/**
 * ARGV: channel, source field ('' = none), source position, event JSON list (already formatted
 * for this queue) -> last id; -1 if the queue is gone; -2 if the source position was already
 * applied.
 *
 * The source is where the events came from (a stream partition and entry id). Entries of one
 * partition reach the queue in stream order, so the queue remembers the last position it took
 * from each partition and refuses anything at or before it: a consumer that re-reads entries a
 * dead predecessor had already appended, or a zombie consumer behind its successor, cannot
 * duplicate or reorder events. Positions are stream ids "<ms>-<seq>".
 *
 * The wake-up published on the channel is the appended members ("<id>|<json>") joined by
 * newlines (JSON text never holds a raw newline), or only the last id when they exceed
 * WAKE_PAYLOAD_MAX; see parseWake.
 */
export const APPEND = `${APPEND_ONE}
local events = {}
for i = 4, #ARGV do events[#events + 1] = ARGV[i] end
return append(KEYS[1], KEYS[2], ARGV[1], ARGV[2], ARGV[3], events)
`;

/**
 * Many queues' appends in one call, for the fan-out on a single Redis node (a script may only
 * touch keys of one slot on a cluster, where each queue gets its own APPEND instead). Each event
 * text is sent once however many queues receive it.
 *
 * KEYS: meta and events key of each queue, in pairs. ARGV[1] = T, the number of distinct event
 * texts, ARGV[2..T+1] the texts; then per queue: channel, source field, source position, n, and
 * the n indexes (1-based) of its events among the texts. Returns one reply per queue: APPEND's,
 * or the error text when that queue's append failed (the other queues' appends still run, as
 * they would in a pipeline).
 */
export const APPEND_BATCH = `${APPEND_ONE}
local texts = tonumber(ARGV[1])
local at = texts + 2
local out = {}
for q = 1, #KEYS / 2 do
  local channel, field, position, n = ARGV[at], ARGV[at + 1], ARGV[at + 2], tonumber(ARGV[at + 3])
  local events = {}
  for i = 1, n do events[i] = ARGV[1 + tonumber(ARGV[at + 3 + i])] end
  at = at + 4 + n
  local ok, id = pcall(append, KEYS[2 * q - 1], KEYS[2 * q], channel, field, position, events)
  if ok then out[q] = id
  elseif type(id) == 'table' and id.err then out[q] = id.err
  else out[q] = tostring(id) end
end
return out
`;

/**
 * What a poll's acknowledgement does to its queue, shared by FETCH and ACK_BATCH: `prune`
 * drops the events up to `ack` and, where the queue records it, moves 'pruned' to the newest
 * event dropped, returning the recorded value; `touch` refreshes the idle timer, since a poll,
 * held or answered, keeps its queue alive.
 */
const ACK_STEPS = `
local function prune(meta, zset, ack, pruned)
  local top = redis.call('ZREVRANGEBYSCORE', zset, ack, '-inf', 'WITHSCORES', 'LIMIT', 0, 1)
  if #top > 0 then
    redis.call('ZREMRANGEBYSCORE', zset, '-inf', ack)
    if pruned then
      pruned = top[2]
      redis.call('HSET', meta, 'pruned', pruned)
    end
  end
  return pruned
end
local function touch(meta, zset, now)
  local timeout = tonumber(redis.call('HGET', meta, 'idle_timeout_ms'))
  redis.call('HSET', meta, 'last_touched', now)
  redis.call('PEXPIRE', meta, timeout)
  redis.call('PEXPIRE', zset, timeout)
end
`;

/**
 * ARGV: user id, last_event_id ('' when absent), now ms.
 * Checks ownership, prunes acknowledged events, refreshes the idle timer and returns
 * {status, events...}; status is 'ok', or 'missing' for an unknown, collected or foreign queue,
 * or, as the family's server checks an acknowledgement, 'pruned' when last_event_id is below
 * what an earlier poll already acknowledged and 'unknown' when it names no event the queue
 * issued (the events up to it are pruned all the same). The meta field 'pruned' is the newest
 * acknowledged id; queues made before it existed skip both checks.
 */
export const FETCH = `${ACK_STEPS}
local owner = redis.call('HGET', KEYS[1], 'user_id')
if not owner or owner ~= ARGV[1] then return {'missing'} end
if ARGV[2] ~= '' then
  local ack = tonumber(ARGV[2])
  local pruned = redis.call('HGET', KEYS[1], 'pruned')
  if pruned and ack < tonumber(pruned) then return {'pruned'} end
  pruned = prune(KEYS[1], KEYS[2], ARGV[2], pruned)
  if pruned and tonumber(pruned) ~= ack then return {'unknown'} end
end
touch(KEYS[1], KEYS[2], ARGV[3])
local from = '-inf'
if ARGV[2] ~= '' then from = '(' .. ARGV[2] end
local events = redis.call('ZRANGEBYSCORE', KEYS[2], from, '+inf')
table.insert(events, 1, 'ok')
return events
`;

/**
 * Acknowledgements a gateway held back (AckBatcher): polls it could hold without reading their
 * queue, since it had itself just answered them with every event the queue holds. KEYS: meta
 * and events key of each queue, in pairs; ARGV[1] = now ms, then per queue the user id and the
 * acknowledged id. Prunes and records 'pruned' as FETCH does and refreshes the idle timer;
 * returns per queue 1, or 0 for an unknown, collected or foreign queue. An acknowledgement at or
 * below what was already pruned (a later poll, perhaps on another gateway, got there first) only
 * refreshes the timer: it was checked when it was answered, and is no error now.
 */
export const ACK_BATCH = `${ACK_STEPS}
local out = {}
for q = 1, #KEYS / 2 do
  local meta, zset = KEYS[2 * q - 1], KEYS[2 * q]
  local owner = redis.call('HGET', meta, 'user_id')
  if not owner or owner ~= ARGV[2 * q] then out[q] = 0
  else
    local ack = ARGV[2 * q + 1]
    local pruned = redis.call('HGET', meta, 'pruned')
    if not pruned or tonumber(ack) > tonumber(pruned) then prune(meta, zset, ack, pruned) end
    touch(meta, zset, ARGV[1])
    out[q] = 1
  end
end
return out
`;
