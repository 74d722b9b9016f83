// The scripts of the mock as a whole (its fingerprint, the sandboxes and their keys, in the slot of
// `{hr-mock}`) and of a world's life (made, reset, deleted, in the world's slot). On a Cluster the
// two slots differ, so a sandbox is made world first, then registered, and deleted the other way
// round: a world no sandbox names is never served, and a registered one always has its keys.

/**
 * KEYS state; ARGV the state's JSON. Sets it when there is none; answers the state held (JSON).
 */
export const CLAIM_STATE_SCRIPT = `
redis.call('SET', KEYS[1], ARGV[1], 'NX')
return redis.call('GET', KEYS[1])
`;

/** KEYS meta; starts a world's metadata when it has none (generation 1, no changes). Answers {gen, n}. */
export const OPEN_WORLD_SCRIPT = `
if redis.call('HSETNX', KEYS[1], 'gen', 1) == 1 then redis.call('HSET', KEYS[1], 'n', 0) end
local info = redis.call('HMGET', KEYS[1], 'gen', 'n', 'deleted')
if info[3] == '1' then return {-1} end
return {tonumber(info[1]), tonumber(info[2])}
`;

/**
 * KEYS sandboxes, sandboxKeys; ARGV max, id, definition JSON, then the sandbox's keys. Registers it
 * unless the mock holds `max` already. Answers {1} or {0, held}.
 */
export const REGISTER_SANDBOX_SCRIPT = `
local held = redis.call('HLEN', KEYS[1])
if held >= tonumber(ARGV[1]) then return {0, held} end
redis.call('HSET', KEYS[1], ARGV[2], ARGV[3])
for i = 4, #ARGV do redis.call('HSET', KEYS[2], ARGV[i], ARGV[2]) end
return {1}
`;

/** KEYS sandboxes, sandboxKeys; ARGV id, then its keys. Answers 1 when it was registered. */
export const UNREGISTER_SANDBOX_SCRIPT = `
local was = redis.call('HDEL', KEYS[1], ARGV[1])
for i = 2, #ARGV do redis.call('HDEL', KEYS[2], ARGV[i]) end
return was
`;

/**
 * KEYS meta then every other key of the world. Back to its start: a new generation (rate-limit
 * counts start again), no changes, no faults, journal, endpoints or deliveries. Answers the generation.
 */
export const RESET_WORLD_SCRIPT = `
local gen = tonumber(redis.call('HGET', KEYS[1], 'gen') or '0') + 1
for i = 1, #KEYS do redis.call('DEL', KEYS[i]) end
redis.call('HSET', KEYS[1], 'gen', gen, 'n', 0)
return gen
`;

/** KEYS meta then every other key of the world: gone, its metadata saying so until it expires. */
export const DELETE_WORLD_SCRIPT = `
for i = 2, #KEYS do redis.call('DEL', KEYS[i]) end
redis.call('HSET', KEYS[1], 'deleted', 1)
redis.call('PEXPIRE', KEYS[1], 86400000)
return 1
`;
