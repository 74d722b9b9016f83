// The scripts of requests, in batches: what a replica admits or records in one turn of its event
// loop goes to Redis as one script call per world, in the world's slot. Journal entries are JSON
// never decoded here; a batch's entries are pushed in one command, its counts added once per field.
import { MAX_PARAMETER_NAMES } from "../../../worlds/journal/tally.js";
import { ADMITTED, TALLY } from "../formats.js";

/**
 * Collecting records: `collect(at)` reads one record from ARGV at `at` (entry, operationId ('' for
 * an unmatched path), status, 1 when an unmatched path counts as such, the number of parameter
 * names, the names) and answers where the next argument is; `store(journal, tally, capacity)`
 * writes what was collected.
 */
const RECORDS_LUA = `
local entries, counts, names = {}, {}, {}
local function add(field, n) counts[field] = (counts[field] or 0) + n end

local function collect(at)
  local entry, op, status, unmatched, count = ARGV[at], ARGV[at + 1], ARGV[at + 2], ARGV[at + 3], tonumber(ARGV[at + 4])
  table.insert(entries, entry)
  add('${TALLY.recorded}', 1)
  if op == '' then
    if unmatched == '1' then add('${TALLY.unmatched}', 1) end
  else
    add('${TALLY.requests}' .. op, 1)
    add('${TALLY.statuses}' .. op .. ':' .. status, 1)
    for i = at + 5, at + 4 + count do
      local field = '${TALLY.parameters}' .. op .. ':' .. ARGV[i]
      if not names[field] then names[field] = { op = op, n = 0 } end
      names[field].n = names[field].n + 1
    end
  end
  return at + 5 + count
end

local function store(journal, tally, capacity)
  if #entries == 0 then return end
  local length = redis.call('LPUSH', journal, unpack(entries))
  if length > capacity then
    redis.call('LTRIM', journal, 0, capacity - 1)
    add('${TALLY.dropped}', length - capacity)
  end
  for field, n in pairs(counts) do redis.call('HINCRBY', tally, field, n) end
  -- A parameter name is counted once it is known, or while its operation has fewer than the most names.
  for field, name in pairs(names) do
    if redis.call('HEXISTS', tally, field) == 1 then
      redis.call('HINCRBY', tally, field, name.n)
    elseif tonumber(redis.call('HGET', tally, '${TALLY.parameterNames}' .. name.op) or '0') < ${MAX_PARAMETER_NAMES} then
      redis.call('HINCRBY', tally, '${TALLY.parameterNames}' .. name.op, 1)
      redis.call('HSET', tally, field, name.n)
    end
  end
end
`;

/**
 * KEYS meta, journal, tally. ARGV the records' generation (0: not known yet), capacity, then records
 * as collect reads them. Records of a deleted world or a generation it has left are dropped (answers
 * 0), as the journal was; 1 when kept.
 */
export const RECORD_SCRIPT = `${RECORDS_LUA}
local meta = redis.call('HMGET', KEYS[1], 'gen', 'deleted')
if meta[2] == '1' or (ARGV[1] ~= '0' and meta[1] ~= ARGV[1]) then return 0 end
local at = 3
while at <= #ARGV do at = collect(at) end
store(KEYS[2], KEYS[3], tonumber(ARGV[2]))
return 1
`;

/** KEYS journal, tally: both emptied; answers how many entries the journal held. */
export const CLEAR_JOURNAL_SCRIPT = `
local held = redis.call('LLEN', KEYS[1])
redis.call('DEL', KEYS[1], KEYS[2])
return held
`;

/** Arguments of each request of an admission batch before its record (see ADMIT_SCRIPT). */
const ADMIT_FIELDS = 6;

/**
 * KEYS meta, faults, journal, tally, then the rate-limit logs of the batch's counted requests.
 * ARGV gen, n, limit (0: off), windowMs, capacity, then per request: the index of its rate-limit log
 * in KEYS (0: not counted), a unique member, read (1/0), permitted (1/0), operationId, 1 when a record
 * follows (the exchange to record if admitted, as RECORDS_LUA's collect reads it) or 0.
 * Answers {stale, gen, n} (another generation) | {gone} for the batch, or the world's data changes
 * (n) then per request four values: rateLimited, limit,
 * retryAfterSeconds, '' | forbidden, remaining, '', '' | fault, remaining, faultJson, '' |
 * admitted, remaining, delayMs, recorded (1/0); remaining -1 when not counted.
 */
export const ADMIT_SCRIPT = `${RECORDS_LUA}
local meta = redis.call('HMGET', KEYS[1], 'gen', 'n', 'deleted')
if not meta[1] or meta[3] == '1' then return {${ADMITTED.gone}} end
if meta[1] ~= ARGV[1] then return {${ADMITTED.stale}, tonumber(meta[1]), tonumber(meta[2])} end
-- Behind on data changes only: admitted all the same (the rate limit and faults are the generation's),
-- but no kept answer is recorded: each is for data the world has moved past, and answers again.
local behind = meta[2] ~= ARGV[2]
local limit, window, capacity = tonumber(ARGV[3]), tonumber(ARGV[4]), tonumber(ARGV[5])
local now
local faults = redis.call('LLEN', KEYS[2]) > 0 and redis.call('LRANGE', KEYS[2], 0, -1) or nil
local answer = {tonumber(meta[2])}
local function reply(a, b, c, d)
  table.insert(answer, a)
  table.insert(answer, b)
  table.insert(answer, c)
  table.insert(answer, d)
end
-- The first fault of the operation, used once (a counted one goes when used up).
local function take(op)
  for i, text in ipairs(faults) do
    local fault = cjson.decode(text)
    if fault.operation == op then
      if fault.remaining ~= cjson.null then
        fault.remaining = fault.remaining - 1
        if fault.remaining == 0 then
          redis.call('LREM', KEYS[2], 1, text)
          table.remove(faults, i)
        else
          local changed = cjson.encode(fault)
          redis.call('LSET', KEYS[2], i - 1, changed)
          faults[i] = changed
        end
      end
      return fault
    end
  end
  return nil
end
local at = 6
while at <= #ARGV do
  local rate, member, read, permitted, op, recorded = tonumber(ARGV[at]), ARGV[at + 1], ARGV[at + 2] == '1', ARGV[at + 3] == '1', ARGV[at + 4], ARGV[at + 5] == '1'
  at = at + ${ADMIT_FIELDS}
  local remaining, outcome = -1, nil
  if rate > 0 and limit > 0 then
    if not now then
      local time = redis.call('TIME')
      now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
    end
    local log = KEYS[rate]
    redis.call('ZREMRANGEBYSCORE', log, '-inf', now - window)
    local count = redis.call('ZCARD', log)
    if count >= limit then
      local oldest = redis.call('ZRANGE', log, 0, 0, 'WITHSCORES')
      reply(${ADMITTED.rateLimited}, limit, math.max(1, math.ceil((tonumber(oldest[2]) + window - now) / 1000)), '')
      outcome = 'done'
    else
      redis.call('ZADD', log, now, now .. ':' .. member)
      redis.call('PEXPIRE', log, window)
      remaining = limit - count - 1
    end
  end
  if not outcome and not permitted then
    reply(${ADMITTED.forbidden}, remaining, '', '')
    outcome = 'done'
  end
  local delay = 0
  if not outcome and read and faults then
    local fault = take(op)
    if fault and fault.status ~= cjson.null then
      reply(${ADMITTED.fault}, remaining, cjson.encode(fault), '')
      outcome = 'done'
    elseif fault and fault.delayMs ~= cjson.null then
      delay = fault.delayMs
    end
  end
  if recorded then
    if behind then recorded = false elseif not outcome then collect(at) end
    at = at + 5 + tonumber(ARGV[at + 4])
  end
  if not outcome then reply(${ADMITTED.admitted}, remaining, delay, recorded and 1 or 0) end
end
store(KEYS[3], KEYS[4], capacity)
return answer
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
