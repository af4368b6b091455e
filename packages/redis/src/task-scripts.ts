import type { Redis } from 'ioredis';

// The Lua scripts of RedisTaskStore. A task is one hash: `r` its record as JSON (without `version`
// and `runner`), `v` its version, `s` its status, `ri`/`rl` its runner and lease end. The record's
// JSON is never decoded in Lua (cjson would turn `[]` into `{}` and round long numbers): the store
// computes a new record in JS and a script writes it only if the version is still the one it read.

/** Statuses a task never leaves, as a Lua set. */
const TERMINAL = `local terminal = { completed = true, failed = true, cancelled = true }`;

/**
 * KEYS: task, owner's tasks (by creation), owner's expiries, leases. ARGV: record JSON, status,
 * version, runner instance ('' none), lease end, task id, createdAt, expiresAt ('' never), now.
 * Stores a new task (0 when the id exists) and indexes it for `list` (by creation, and by expiry:
 * up to 32 of the owner's expired ids are dropped, and both indexes expire with the owner's last
 * task) and for the lease sweep.
 */
const CREATE = `
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
redis.call('HSET', KEYS[1], 'r', ARGV[1], 's', ARGV[2], 'v', ARGV[3])
if ARGV[4] ~= '' then
  redis.call('HSET', KEYS[1], 'ri', ARGV[4], 'rl', ARGV[5])
  redis.call('ZADD', KEYS[4], ARGV[5], ARGV[6])
end
if ARGV[8] ~= '' then redis.call('PEXPIREAT', KEYS[1], ARGV[8]) end
redis.call('ZADD', KEYS[2], ARGV[7], ARGV[6])
redis.call('ZADD', KEYS[3], ARGV[8] == '' and '+inf' or ARGV[8], ARGV[6])
local gone = redis.call('ZRANGEBYSCORE', KEYS[3], '-inf', '(' .. ARGV[9], 'LIMIT', 0, 32)
if #gone > 0 then
  redis.call('ZREM', KEYS[2], unpack(gone))
  redis.call('ZREM', KEYS[3], unpack(gone))
end
local last = redis.call('ZRANGE', KEYS[3], -1, -1, 'WITHSCORES')[2]
for _, key in ipairs({ KEYS[2], KEYS[3] }) do
  if last == 'inf' then redis.call('PERSIST', key) else redis.call('PEXPIREAT', key, last) end
end
return 1
`;

/**
 * KEYS: task, leases. ARGV: version read, record JSON, status, runner instance ('' none), lease
 * end, task id, channel, then the messages to publish. Writes the record when its version is
 * still the one read (1), else 0 (changed meanwhile: read again) or -1 (gone).
 */
const WRITE = `
${TERMINAL}
local v = redis.call('HGET', KEYS[1], 'v')
if not v then return -1 end
if v ~= ARGV[1] then return 0 end
redis.call('HSET', KEYS[1], 'r', ARGV[2], 's', ARGV[3], 'v', tonumber(v) + 1)
if ARGV[4] ~= '' then redis.call('HSET', KEYS[1], 'ri', ARGV[4], 'rl', ARGV[5]) end
if terminal[ARGV[3]] then
  redis.call('ZREM', KEYS[2], ARGV[6])
elseif ARGV[4] ~= '' then
  redis.call('ZADD', KEYS[2], ARGV[5], ARGV[6])
end
for i = 8, #ARGV do redis.call('PUBLISH', ARGV[7], ARGV[i]) end
return 1
`;

/**
 * KEYS: task, leases. ARGV: instance, lease end, claim ('1' or ''), now, task id, channel, this
 * store's instance tag. Renews the instance's lease or claims an expired one (then publishes the
 * changed record, composed here without decoding it); 1 when the instance holds it now.
 */
const LEASE = `
${TERMINAL}
local task = redis.call('HMGET', KEYS[1], 's', 'ri', 'rl', 'r', 'v')
if not task[1] or terminal[task[1]] then return 0 end
local mine = (not task[2]) or task[2] == ARGV[1]
if not mine and not (ARGV[3] == '1' and tonumber(task[3]) < tonumber(ARGV[4])) then return 0 end
local v = tonumber(task[5]) + 1
redis.call('HSET', KEYS[1], 'ri', ARGV[1], 'rl', ARGV[2], 'v', v)
redis.call('ZADD', KEYS[2], ARGV[2], ARGV[5])
if not mine then
  redis.call('PUBLISH', ARGV[6], '{"o":' .. cjson.encode(ARGV[7]) .. ',"t":"changed","r":' .. task[4] .. ',"v":' .. v .. ',"ri":' .. cjson.encode(ARGV[1]) .. ',"rl":' .. ARGV[2] .. '}')
end
return 1
`;

/**
 * KEYS: leases. ARGV: now, limit, prefix of task keys. Ids whose lease ended before now, of tasks
 * still there and unfinished; ids of tasks gone (expired) or finished are dropped from the index.
 */
const EXPIRED_LEASES = `
${TERMINAL}
local ids = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', '(' .. ARGV[1], 'LIMIT', 0, tonumber(ARGV[2]))
local found = {}
for _, id in ipairs(ids) do
  local status = redis.call('HGET', ARGV[3] .. id, 's')
  if status and not terminal[status] then found[#found + 1] = id else redis.call('ZREM', KEYS[1], id) end
end
return found
`;

/** The scripts as commands on a client (ioredis sends them with EVALSHA, loading them when Redis lacks them). */
export interface TaskCommands {
  decorumTaskCreate(...args: Array<string | number>): Promise<number>;
  decorumTaskWrite(...args: Array<string | number>): Promise<number>;
  decorumTaskLease(...args: Array<string | number>): Promise<number>;
  decorumTaskExpiredLeases(...args: Array<string | number>): Promise<string[]>;
}

/** Defines the scripts on `client` (once per client) and answers it typed with them. */
export function taskCommands(client: Redis): Redis & TaskCommands {
  const commands = client as Redis & Partial<TaskCommands>;
  if (typeof commands.decorumTaskCreate !== 'function') {
    client.defineCommand('decorumTaskCreate', { numberOfKeys: 4, lua: CREATE });
    client.defineCommand('decorumTaskWrite', { numberOfKeys: 2, lua: WRITE });
    client.defineCommand('decorumTaskLease', { numberOfKeys: 2, lua: LEASE });
    client.defineCommand('decorumTaskExpiredLeases', { numberOfKeys: 1, lua: EXPIRED_LEASES });
  }
  return commands as Redis & TaskCommands;
}
