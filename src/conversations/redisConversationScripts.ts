// The Lua scripts of redisConversationStore. Each runs atomically in Redis: every check comes before
// the first write, so a refused call writes nothing. Key names arrive in KEYS (built by
// redisConversationKey) or are read back from what an earlier script stored (an index member, a
// thread's `ownerKey`): no script puts data into a key name.
import { createHash } from "node:crypto";

// int(): a stored whole number (digits only, exact as a double), else nil. fmt(): a number as the
// digits Redis stores (tostring would write 1.7e+12). member(): redisIndexMember's form.
const helpers = `
local function int(s)
  if type(s) ~= 'string' or #s == 0 or #s > 15 or not string.match(s, '^%d+$') then return nil end
  return tonumber(s)
end
local function fmt(n) return string.format('%d', n) end
local function member(updated, threadKey) return string.format('%016x', 9007199254740991 - updated) .. threadKey end
local function reindex(threadKey, allKey, oldMember, oldOwnerKey, newOwnerKey, updated)
  local m = member(updated, threadKey)
  if oldMember then
    redis.call('ZREM', allKey, oldMember)
    if oldOwnerKey then redis.call('ZREM', oldOwnerKey, oldMember) end
  end
  redis.call('ZADD', allKey, 0, m)
  if newOwnerKey then redis.call('ZADD', newOwnerKey, 0, m) end
  redis.call('HSET', threadKey, 'indexed', m)
end
`;

/** A Lua script and its SHA1, for EVALSHA with an EVAL fallback. */
export interface RedisScript {
  readonly source: string;
  readonly sha: string;
  readonly keys: number;
}

function script(keys: number, body: string): RedisScript {
  const source = `${helpers}\n${body}`;
  return { source, sha: createHash("sha1").update(source).digest("hex"), keys };
}

/**
 * KEYS: thread, messages, runs, all-threads index. ARGV: threadId, runId, digest, expectedVersion
 * ('' for none), now, '1' when state is given, state JSON, then the messages' JSON.
 * Returns {'appended'|'retry', firstSeq, version}, {'runconflict'}, {'conflict', version} or {'corrupt', what}.
 */
export const appendScript = script(
  4,
  `
local run = redis.call('HGET', KEYS[3], ARGV[2])
if run then
  local digest, first, version = string.match(run, '^(%x+) (%d+) (%d+)$')
  if not digest then return {'corrupt', 'run'} end
  if digest ~= ARGV[3] then return {'runconflict'} end
  return {'retry', first, version}
end
local f = redis.call('HMGET', KEYS[1], 'version', 'count', 'updated', 'indexed', 'ownerKey')
local version, count, updated = 0, 0, 0
if f[1] then
  version, count, updated = int(f[1]), int(f[2]), int(f[3])
  if not (version and count and updated) then return {'corrupt', 'thread'} end
end
if redis.call('LLEN', KEYS[2]) ~= count then return {'corrupt', 'thread'} end
if ARGV[4] ~= '' and tonumber(ARGV[4]) ~= version then return {'conflict', fmt(version)} end
local now = tonumber(ARGV[5])
local n = #ARGV - 7
for i = 8, #ARGV, 1000 do redis.call('RPUSH', KEYS[2], unpack(ARGV, i, math.min(i + 999, #ARGV))) end
if not f[1] then redis.call('HSET', KEYS[1], 'id', ARGV[1], 'created', fmt(now)) end
version = version + 1
updated = math.max(updated, now)
redis.call('HSET', KEYS[1], 'version', fmt(version), 'count', fmt(count + n), 'updated', fmt(updated))
if ARGV[6] == '1' then redis.call('HSET', KEYS[1], 'state', ARGV[7]) end
redis.call('HSET', KEYS[3], ARGV[2], ARGV[3] .. ' ' .. fmt(count + 1) .. ' ' .. fmt(version))
reindex(KEYS[1], KEYS[4], f[4], f[5], f[5], updated)
return {'appended', fmt(count + 1), fmt(version)}
`,
);

/** KEYS: thread, messages. Returns the thread's fields (HMGET order of threadFields) and its messages, read at one instant. */
export const loadScript = script(
  2,
  `
return {redis.call('HMGET', KEYS[1], 'version', 'count', 'created', 'updated', 'title', 'owner', 'state'), redis.call('LRANGE', KEYS[2], 0, -1)}
`,
);

/**
 * KEYS: thread, all-threads index, the new owner's index ('' when the owner is kept or cleared).
 * ARGV: threadId, now, title op ('keep'|'set'|'clear'), title, owner op, owner.
 * Returns the thread's fields (version, count, created, updated, title, owner) or {'corrupt'}.
 */
export const setMetadataScript = script(
  3,
  `
local f = redis.call('HMGET', KEYS[1], 'version', 'count', 'created', 'updated', 'indexed', 'ownerKey')
local now = tonumber(ARGV[2])
local updated = now
if f[1] then
  if not (int(f[1]) and int(f[2]) and int(f[3]) and int(f[4])) then return {'corrupt'} end
  updated = math.max(int(f[4]), now)
else
  redis.call('HSET', KEYS[1], 'id', ARGV[1], 'version', '0', 'count', '0', 'created', fmt(now))
end
if ARGV[3] == 'set' then redis.call('HSET', KEYS[1], 'title', ARGV[4]) elseif ARGV[3] == 'clear' then redis.call('HDEL', KEYS[1], 'title') end
local ownerKey = f[6]
if ARGV[5] == 'set' then
  redis.call('HSET', KEYS[1], 'owner', ARGV[6], 'ownerKey', KEYS[3])
  ownerKey = KEYS[3]
elseif ARGV[5] == 'clear' then
  redis.call('HDEL', KEYS[1], 'owner', 'ownerKey')
  ownerKey = false
end
redis.call('HSET', KEYS[1], 'updated', fmt(updated))
reindex(KEYS[1], KEYS[2], f[5], f[6], ownerKey, updated)
return redis.call('HMGET', KEYS[1], 'version', 'count', 'created', 'updated', 'title', 'owner')
`,
);

/** KEYS: thread, messages, runs, all-threads index. Returns 1 when the thread existed (all its keys and index entries are gone), else 0. */
export const deleteScript = script(
  4,
  `
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
local f = redis.call('HMGET', KEYS[1], 'indexed', 'ownerKey')
redis.call('DEL', KEYS[1], KEYS[2], KEYS[3])
if f[1] then
  redis.call('ZREM', KEYS[4], f[1])
  if f[2] then redis.call('ZREM', f[2], f[1]) end
end
return 1
`,
);

/**
 * KEYS: the index to page (all threads, or an owner's). ARGV: the ZRANGE BYLEX start ('-' or
 * '(' .. the cursor's member), how many. Returns, per member, {member, id, version, count, created,
 * updated, title, owner} read at one instant.
 */
export const listScript = script(
  1,
  `
local members = redis.call('ZRANGE', KEYS[1], ARGV[1], '+', 'BYLEX', 'LIMIT', 0, tonumber(ARGV[2]))
local out = {}
for i, m in ipairs(members) do
  local f = redis.call('HMGET', string.sub(m, 17), 'id', 'version', 'count', 'created', 'updated', 'title', 'owner')
  table.insert(f, 1, m)
  out[i] = f
end
return out
`,
);
