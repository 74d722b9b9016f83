// The scripts of one request: admission (the world's generation and changes checked, the rate
// limit counted, the permission placed, a scripted fault taken, and on a cache hit the exchange
// recorded) in one round trip, and recording alone for answers made after admission. Each runs in
// its world's slot. Journal entries are JSON written by the replica and never decoded here.
import { MAX_PARAMETER_NAMES } from "../../../worlds/journal/tally.js";

/**
 * Records one exchange: KEYS journal, tally; ARGV from `at`: entry, capacity, operationId ('' for
 * an unmatched path), status, 1 when an unmatched path counts as such, then the query's parameter names.
 */
export const RECORD_LUA = `
local function record(journal, tally, at)
  local entry, capacity, op, status, unmatched = ARGV[at], tonumber(ARGV[at + 1]), ARGV[at + 2], ARGV[at + 3], ARGV[at + 4]
  redis.call('HINCRBY', tally, 'r', 1)
  local length = redis.call('LPUSH', journal, entry)
  if length > capacity then
    redis.call('LTRIM', journal, 0, capacity - 1)
    redis.call('HINCRBY', tally, 'dropped', length - capacity)
  end
  if op == '' then
    if unmatched == '1' then redis.call('HINCRBY', tally, 'u', 1) end
    return
  end
  redis.call('HINCRBY', tally, 'n:' .. op, 1)
  redis.call('HINCRBY', tally, 's:' .. op .. ':' .. status, 1)
  for i = at + 5, #ARGV do
    local field = 'p:' .. op .. ':' .. ARGV[i]
    if redis.call('HEXISTS', tally, field) == 1 then
      redis.call('HINCRBY', tally, field, 1)
    elseif tonumber(redis.call('HGET', tally, 'pc:' .. op) or '0') < ${MAX_PARAMETER_NAMES} then
      redis.call('HINCRBY', tally, 'pc:' .. op, 1)
      redis.call('HSET', tally, field, 1)
    end
  end
end
`;

/** KEYS journal, tally; ARGV as RECORD_LUA's from 1. */
export const RECORD_SCRIPT = `${RECORD_LUA}
record(KEYS[1], KEYS[2], 1)
return 1
`;

/** KEYS journal, tally: both emptied; answers how many entries the journal held. */
export const CLEAR_JOURNAL_SCRIPT = `
local held = redis.call('LLEN', KEYS[1])
redis.call('DEL', KEYS[1], KEYS[2])
return held
`;

/** What admission answers, first of its list. */
export const ADMITTED = { stale: 0, gone: 1, rateLimited: 2, forbidden: 3, fault: 4, admitted: 5 } as const;

/**
 * KEYS meta, rate, faults, journal, tally.
 * ARGV gen, n, limit (0: off), windowMs, a unique member, read (1/0), permitted (1/0), operationId,
 * then RECORD_LUA's from 9 (the entry '' when nothing is to be recorded).
 * Answers {stale, gen, n} | {gone} | {rateLimited, limit, retryAfterSeconds} | {forbidden, remaining}
 * | {fault, remaining, faultJson} | {admitted, remaining, delayMs, recorded}; remaining -1 when not counted.
 */
export const ADMIT_SCRIPT = `${RECORD_LUA}
local meta = redis.call('HMGET', KEYS[1], 'gen', 'n', 'deleted')
if not meta[1] or meta[3] == '1' then return {${ADMITTED.gone}} end
if meta[1] ~= ARGV[1] or meta[2] ~= ARGV[2] then return {${ADMITTED.stale}, tonumber(meta[1]), tonumber(meta[2])} end
local limit, window, read = tonumber(ARGV[3]), tonumber(ARGV[4]), ARGV[6] == '1'
local remaining = -1
if limit > 0 and read then
  local time = redis.call('TIME')
  local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
  redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now - window)
  local count = redis.call('ZCARD', KEYS[2])
  if count >= limit then
    local oldest = redis.call('ZRANGE', KEYS[2], 0, 0, 'WITHSCORES')
    return {${ADMITTED.rateLimited}, limit, math.max(1, math.ceil((tonumber(oldest[2]) + window - now) / 1000))}
  end
  redis.call('ZADD', KEYS[2], now, now .. ':' .. ARGV[5])
  redis.call('PEXPIRE', KEYS[2], window)
  remaining = limit - count - 1
end
if ARGV[7] ~= '1' then return {${ADMITTED.forbidden}, remaining} end
local delay = 0
if read and redis.call('LLEN', KEYS[3]) > 0 then
  local faults = redis.call('LRANGE', KEYS[3], 0, -1)
  for i, text in ipairs(faults) do
    local fault = cjson.decode(text)
    if fault.operation == ARGV[8] then
      if fault.remaining ~= cjson.null then
        fault.remaining = fault.remaining - 1
        if fault.remaining == 0 then redis.call('LREM', KEYS[3], 1, text) else redis.call('LSET', KEYS[3], i - 1, cjson.encode(fault)) end
      end
      if fault.status ~= cjson.null then return {${ADMITTED.fault}, remaining, cjson.encode(fault)} end
      if fault.delayMs ~= cjson.null then delay = fault.delayMs end
      break
    end
  end
end
if ARGV[9] == '' then return {${ADMITTED.admitted}, remaining, delay, 0} end
record(KEYS[4], KEYS[5], 9)
return {${ADMITTED.admitted}, remaining, delay, 1}
`;

/** KEYS faults; ARGV max, fault JSON. Answers {1} or {0, held}. */
export const ADD_FAULT_SCRIPT = `
local held = redis.call('LLEN', KEYS[1])
if held >= tonumber(ARGV[1]) then return {0, held} end
redis.call('RPUSH', KEYS[1], ARGV[2])
return {1}
`;

/** KEYS faults; answers the faults it removed. */
export const CLEAR_FAULTS_SCRIPT = `
local faults = redis.call('LRANGE', KEYS[1], 0, -1)
redis.call('DEL', KEYS[1])
return faults
`;
