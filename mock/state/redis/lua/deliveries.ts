// The scripts of a world's webhook side: endpoints, publishing, claiming due deliveries under a
// lease, renewing, settling, and the bounds. Every script takes the same keys (DELIVERY_KEYS) in the
// world's slot. A log entry is JSON never re-encoded here; its state and nextAttemptAt are in `states`.
import type { WorldKeys } from "../keys.js";
import { LUA_FORMATS, REFUSED } from "../formats.js";
import { LOG_TRIM_SLACK } from "../../../webhooks/delivery-log.js";

/** The keys every delivery script takes, in this order; the scripts know them by these names. */
const DELIVERY_KEYS = ["meta", "changes", "endpoints", "deliveries", "states", "index", "order", "bodies", "bodyRefs", "due", "leases", "leaseOwners", "waiting", "waitCounts", "inFlight", "drops"] as const satisfies readonly (keyof WorldKeys)[];

export const DELIVERY_KEY_COUNT = DELIVERY_KEYS.length;

export function deliveryKeys(keys: WorldKeys): string[] {
  return DELIVERY_KEYS.map((name) => keys[name]);
}

/** Shared functions; `|~` sorts after every `|<digits>`, so [x| to (x|~ is every member of x. */
const LIB = `
local ${DELIVERY_KEYS.join(", ")} = unpack(KEYS)
${LUA_FORMATS}

local function now()
  local time = redis.call('TIME')
  return tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
end

local function where(id)
  local text = redis.call('HGET', index, id)
  if not text then return nil end
  return split_index(text)
end

local function stopWaiting(id, at)
  if redis.call('ZREM', waiting, join_waiting({ endpoint = at.endpoint, seq = at.seq, id = id })) == 1 then
    redis.call('HINCRBY', waitCounts, at.endpoint, -1)
  end
  redis.call('ZREM', due, id)
end

local function wait(id, at, dueMs, state, nextAt)
  redis.call('ZADD', due, dueMs, id)
  if redis.call('ZADD', waiting, 0, join_waiting({ endpoint = at.endpoint, seq = at.seq, id = id })) == 1 then
    redis.call('HINCRBY', waitCounts, at.endpoint, 1)
  end
  redis.call('HSET', states, id, join_state({ state = state, nextAt = nextAt }))
end

-- A lease given up (run out, or handed back): the delivery is due again at t, for whichever replica claims it first.
local function release(id, t)
  redis.call('ZREM', leases, id)
  redis.call('HDEL', leaseOwners, id)
  local at = where(id)
  if at then
    redis.call('HINCRBY', inFlight, at.endpoint, -1)
    wait(id, at, t, 'queued', '')
  end
end

-- The oldest delivery waiting for the endpoint goes; its id, event and the endpoint's drops so far
-- are appended to 'dropped' (flat). False when none waits.
local function dropOldest(endpoint, dropped)
  local min, max = range(endpoint)
  local found = redis.call('ZRANGEBYLEX', waiting, min, max, 'LIMIT', 0, 1)
  if #found == 0 then return false end
  local id = lastPart(found[1])
  local at = where(id)
  stopWaiting(id, at)
  redis.call('HSET', states, id, join_state({ state = 'dropped', nextAt = '' }))
  table.insert(dropped, id)
  table.insert(dropped, at.event)
  table.insert(dropped, redis.call('HINCRBY', drops, endpoint, 1))
  return true
end

-- Keeps the waiting deliveries within both bounds; appends what it dropped to 'dropped'.
local function bound(endpoint, perEndpoint, inAll, dropped)
  while tonumber(redis.call('HGET', waitCounts, endpoint) or '0') > perEndpoint do
    if not dropOldest(endpoint, dropped) then break end
  end
  while redis.call('ZCARD', waiting) > inAll do
    local counts = redis.call('HGETALL', waitCounts)
    local fullest, most = nil, 0
    for i = 1, #counts, 2 do
      local n = tonumber(counts[i + 1])
      if n > most then fullest, most = counts[i], n end
    end
    if not fullest or not dropOldest(fullest, dropped) then break end
  end
end

-- The log's trim rule (LOG_TRIM_SLACK, webhooks/delivery-log.ts).
local function trim(org, limit)
  local first, last = range(org)
  local count = redis.call('ZLEXCOUNT', order, first, last)
  if count <= math.ceil(limit * ${LOG_TRIM_SLACK}) then return end
  local excess = count - limit
  for _, member in ipairs(redis.call('ZRANGEBYLEX', order, first, last)) do
    if excess <= 0 then break end
    local id = lastPart(member)
    local held = redis.call('HGET', states, id)
    local state = held and split_state(held).state or 'failed'
    if FINAL[state] then
      local at = where(id)
      redis.call('ZREM', order, member)
      redis.call('HDEL', deliveries, id)
      redis.call('HDEL', states, id)
      redis.call('HDEL', index, id)
      if at and redis.call('HINCRBY', bodyRefs, at.event, -1) <= 0 then
        redis.call('HDEL', bodyRefs, at.event)
        redis.call('HDEL', bodies, at.event)
      end
      excess = excess - 1
    end
  end
end
`;

/**
 * Publishes: checks the world is at generation ARGV[1] with ARGV[2] changes (both '' to skip), appends
 * the data change ARGV[3] (or none: ''), then queues deliveries. ARGV[4..6]: perEndpoint, inAll,
 * logLimit; from 7, groups of 8: id, organisation, endpoint, event, entry JSON, body, delay ms
 * (from the server's clock: replicas' clocks may differ), state.
 * Answers {conflict, gen, n} | {gone} | {1, n, queued, now, dropped...} (dropped: id, event, endpoint's drops).
 */
export const PUBLISH_SCRIPT = `${LIB}
local info = redis.call('HMGET', meta, 'gen', 'n', 'deleted')
if not info[1] or info[3] == '1' then return {${REFUSED.gone}} end
if ARGV[1] ~= '' and (info[1] ~= ARGV[1] or info[2] ~= ARGV[2]) then return {${REFUSED.conflict}, tonumber(info[1]), tonumber(info[2])} end
local n = tonumber(info[2])
if ARGV[3] ~= '' then
  redis.call('RPUSH', changes, ARGV[3])
  n = redis.call('HINCRBY', meta, 'n', 1)
end
local perEndpoint, inAll, logLimit = tonumber(ARGV[4]), tonumber(ARGV[5]), tonumber(ARGV[6])
local orgs, t = {}, now()
-- Dropped deliveries are appended to the answer; answer[3] counts those queued.
local answer = {1, n, 0, t}
for i = 7, #ARGV, 8 do
  local id, org, endpoint, event, entry, body, delay, state = ARGV[i], ARGV[i + 1], ARGV[i + 2], ARGV[i + 3], ARGV[i + 4], ARGV[i + 5], ARGV[i + 6], ARGV[i + 7]
  local seq = string.format('%012d', redis.call('HINCRBY', meta, 'seq', 1))
  local at = { endpoint = endpoint, seq = seq, org = org, event = event }
  redis.call('HSET', deliveries, id, entry)
  redis.call('HSET', index, id, join_index({ endpoint = endpoint, seq = seq, org = org, event = event }))
  redis.call('ZADD', order, 0, join_order({ org = org, seq = seq, id = id }))
  redis.call('HSETNX', bodies, event, body)
  redis.call('HINCRBY', bodyRefs, event, 1)
  if redis.call('HEXISTS', endpoints, endpoint) == 1 then
    wait(id, at, t + tonumber(delay), state, '')
    bound(endpoint, perEndpoint, inAll, answer)
    answer[3] = answer[3] + 1
  else
    redis.call('HSET', states, id, join_state({ state = 'cancelled', nextAt = '' }))
  end
  orgs[org] = true
end
for org in pairs(orgs) do trim(org, logLimit) end
return answer
`;

/**
 * Claims what is due: first attempts whose lease ran out (their replica stopped) are due again now;
 * then up to ARGV[3] due deliveries whose endpoint has fewer than ARGV[4] attempts in flight are
 * leased to ARGV[1] for ARGV[2] ms. Answers {now, next due ms or -1, then per claim: id, entry, endpoint, body}.
 */
export const CLAIM_SCRIPT = `${LIB}
local owner, leaseMs, most, concurrency = ARGV[1], tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4])
local t = now()
for _, id in ipairs(redis.call('ZRANGEBYSCORE', leases, '-inf', t, 'LIMIT', 0, 100)) do
  release(id, t)
end
local answer = {t, -1}
local claimed = 0
for _, id in ipairs(redis.call('ZRANGEBYSCORE', due, '-inf', t, 'LIMIT', 0, most * 4)) do
  if claimed >= most then break end
  local at = where(id)
  local endpoint = at and redis.call('HGET', endpoints, at.endpoint)
  if not endpoint then
    if at then stopWaiting(id, at) else redis.call('ZREM', due, id) end
    redis.call('HSET', states, id, join_state({ state = 'cancelled', nextAt = '' }))
  elseif tonumber(redis.call('HGET', inFlight, at.endpoint) or '0') < concurrency then
    stopWaiting(id, at)
    redis.call('ZADD', leases, t + leaseMs, id)
    redis.call('HSET', leaseOwners, id, owner)
    redis.call('HINCRBY', inFlight, at.endpoint, 1)
    redis.call('HSET', states, id, join_state({ state = 'sending', nextAt = '' }))
    table.insert(answer, id)
    table.insert(answer, redis.call('HGET', deliveries, id))
    table.insert(answer, endpoint)
    table.insert(answer, redis.call('HGET', bodies, at.event) or '')
    claimed = claimed + 1
  end
end
local nextDue = redis.call('ZRANGE', due, 0, 0, 'WITHSCORES')
if #nextDue > 0 then answer[2] = tonumber(nextDue[2]) end
return answer
`;

/**
 * Releases ARGV[1]'s leases but those of the ids from ARGV[2] (being sent): each delivery is due
 * again at once, for whichever replica claims it first. Answers how many were released.
 */
export const RELEASE_SCRIPT = `${LIB}
local owner, t = ARGV[1], now()
local sending = {}
for i = 2, #ARGV do sending[ARGV[i]] = true end
local released = 0
for _, id in ipairs(redis.call('ZRANGE', leases, 0, -1)) do
  if not sending[id] and redis.call('HGET', leaseOwners, id) == owner then
    release(id, t)
    released = released + 1
  end
end
return released
`;

/** Renews ARGV[1]'s leases of the ids from ARGV[3] by ARGV[2] ms. */
export const RENEW_SCRIPT = `${LIB}
local owner, expires = ARGV[1], now() + tonumber(ARGV[2])
for i = 3, #ARGV do
  if redis.call('HGET', leaseOwners, ARGV[i]) == owner then redis.call('ZADD', leases, 'XX', expires, ARGV[i]) end
end
return 1
`;

/**
 * Settles ARGV[1]'s attempt of delivery ARGV[2]: the entry ARGV[3] (its attempt appended), its
 * state ARGV[4] and nextAttemptAt ARGV[5]; a retry is due ARGV[6] ms from now. ARGV[7..8]:
 * perEndpoint, inAll. An endpoint removed meanwhile makes a failed attempt's delivery cancelled.
 * Answers {0} when the lease was lost (it ran out, or the world was reset), else {1, state, due ms
 * or -1, dropped...}.
 */
export const SETTLE_SCRIPT = `${LIB}
local owner, id, entry, state, nextAt, delay = ARGV[1], ARGV[2], ARGV[3], ARGV[4], ARGV[5], ARGV[6]
if redis.call('HGET', leaseOwners, id) ~= owner then return {0} end
redis.call('ZREM', leases, id)
redis.call('HDEL', leaseOwners, id)
local at = where(id)
if not at then return {0} end
redis.call('HINCRBY', inFlight, at.endpoint, -1)
if state ~= 'succeeded' and redis.call('HEXISTS', endpoints, at.endpoint) == 0 then state, nextAt = 'cancelled', '' end
redis.call('HSET', deliveries, id, entry)
local answer = {1, state, -1}
if state == 'retry-scheduled' then
  answer[3] = now() + tonumber(delay)
  wait(id, at, answer[3], state, nextAt)
  bound(at.endpoint, tonumber(ARGV[7]), tonumber(ARGV[8]), answer)
else
  redis.call('HSET', states, id, join_state({ state = state, nextAt = nextAt }))
end
return answer
`;

/** Adds endpoint ARGV[2] (JSON ARGV[3]) to organisation ARGV[1] unless it has ARGV[4] already. Answers {1} or {0, held}. */
export const ADD_ENDPOINT_SCRIPT = `${LIB}
local held = tonumber(redis.call('HGET', meta, 'ep:' .. ARGV[1]) or '0')
if held >= tonumber(ARGV[4]) then return {0, held} end
redis.call('HSET', endpoints, ARGV[2], ARGV[3])
redis.call('HINCRBY', meta, 'ep:' .. ARGV[1], 1)
return {1}
`;

/**
 * Removes endpoint ARGV[2] of organisation ARGV[1]: what waits for it is cancelled; attempts in
 * flight end normally. Answers {1, endpoint JSON} or {0} (no such endpoint in the organisation).
 */
export const REMOVE_ENDPOINT_SCRIPT = `${LIB}
local text = redis.call('HGET', endpoints, ARGV[2])
if not text or cjson.decode(text).organizationId ~= ARGV[1] then return {0} end
redis.call('HDEL', endpoints, ARGV[2])
redis.call('HINCRBY', meta, 'ep:' .. ARGV[1], -1)
local min, max = range(ARGV[2])
for _, member in ipairs(redis.call('ZRANGEBYLEX', waiting, min, max)) do
  local id = lastPart(member)
  redis.call('ZREM', waiting, member)
  redis.call('ZREM', due, id)
  redis.call('HSET', states, id, join_state({ state = 'cancelled', nextAt = '' }))
end
redis.call('HDEL', waitCounts, ARGV[2])
return {1, text}
`;
