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
export const APPEND = `
if redis.call('EXISTS', KEYS[1]) == 0 then return -1 end
if ARGV[2] ~= '' then
  local last = redis.call('HGET', KEYS[1], ARGV[2])
  if last then
    local lm, ls = string.match(last, '^(%d+)-(%d+)$')
    local nm, ns = string.match(ARGV[3], '^(%d+)-(%d+)$')
    lm, ls, nm, ns = tonumber(lm), tonumber(ls), tonumber(nm), tonumber(ns)
    if nm < lm or (nm == lm and ns <= ls) then return -2 end
  end
  redis.call('HSET', KEYS[1], ARGV[2], ARGV[3])
end
local id = tonumber(redis.call('HGET', KEYS[1], 'seq'))
local members, size = {}, 0
for i = 4, #ARGV do
  id = redis.call('HINCRBY', KEYS[1], 'seq', 1)
  local member = id .. '|' .. ARGV[i]
  redis.call('ZADD', KEYS[2], id, member)
  members[#members + 1] = member
  size = size + #member + 1
end
local ttl = redis.call('PTTL', KEYS[1])
if ttl > 0 then redis.call('PEXPIRE', KEYS[2], ttl) end
if #members > 0 then
  if size <= ${WAKE_PAYLOAD_MAX} then redis.call('PUBLISH', ARGV[1], table.concat(members, '\\n'))
  else redis.call('PUBLISH', ARGV[1], id) end
end
return id
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
export const FETCH = `
local owner = redis.call('HGET', KEYS[1], 'user_id')
if not owner or owner ~= ARGV[1] then return {'missing'} end
if ARGV[2] ~= '' then
  local ack = tonumber(ARGV[2])
  local pruned = redis.call('HGET', KEYS[1], 'pruned')
  if pruned and ack < tonumber(pruned) then return {'pruned'} end
  local top = redis.call('ZREVRANGEBYSCORE', KEYS[2], ARGV[2], '-inf', 'WITHSCORES', 'LIMIT', 0, 1)
  if #top > 0 then
    redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', ARGV[2])
    if pruned then
      pruned = top[2]
      redis.call('HSET', KEYS[1], 'pruned', pruned)
    end
  end
  if pruned and tonumber(pruned) ~= ack then return {'unknown'} end
end
local timeout = tonumber(redis.call('HGET', KEYS[1], 'idle_timeout_ms'))
redis.call('HSET', KEYS[1], 'last_touched', ARGV[3])
redis.call('PEXPIRE', KEYS[1], timeout)
redis.call('PEXPIRE', KEYS[2], timeout)
local from = '-inf'
if ARGV[2] ~= '' then from = '(' .. ARGV[2] end
local events = redis.call('ZRANGEBYSCORE', KEYS[2], from, '+inf')
table.insert(events, 1, 'ok')
return events
`;
