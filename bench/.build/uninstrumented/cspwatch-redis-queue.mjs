// ../packages/redis/src/errors.ts
var MARKER = /* @__PURE__ */ Symbol.for('@cspwatch/redis.CspwatchRedisError');
var CspwatchRedisError = class extends Error {
  /** Always `'CspwatchRedisError'`. */
  name = 'CspwatchRedisError';
  /** What went wrong; see {@link CspwatchRedisErrorCode}. */
  code;
  /** The problems found, for `invalid_options` and `invalid_input`; empty otherwise. */
  issues;
  /**
   * @param code - the error code
   * @param message - what happened and what to do
   * @param options - `issues` found, and `cause` passed through to `Error`
   */
  constructor(code, message, options = {}) {
    super(message, options.cause === void 0 ? void 0 : { cause: options.cause });
    this.code = code;
    this.issues = Object.freeze([...(options.issues ?? [])]);
    Object.defineProperty(this, MARKER, { value: true });
  }
};
function isCspwatchRedisError(value) {
  return typeof value === 'object' && value !== null && MARKER in value;
}
function throwIfIssues(what, issues, code = 'invalid_options') {
  if (issues.length === 0) return;
  const summary = issues.map((issue) => `${issue.path}: ${issue.message}`).join('; ');
  throw new CspwatchRedisError(code, `${what}: ${summary}`, { issues });
}
async function callRedis(what, run) {
  try {
    return await run();
  } catch (error) {
    if (isCspwatchRedisError(error)) throw error;
    const name = error?.name;
    const detail = error instanceof Error ? error.message : String(error);
    if (name === 'ReplyError') {
      throw new CspwatchRedisError('redis_command_failed', `${what}: Redis refused: ${detail}`, {
        cause: error,
      });
    }
    const moving = /Cluster redirections|TRYAGAIN|CLUSTERDOWN/.test(detail);
    const why = moving ? 'the cluster is moving or failing over its slots' : 'Redis is unreachable';
    throw new CspwatchRedisError(
      'redis_unavailable',
      `${what}: ${why} (${detail}); nothing was recorded, retry later`,
      { cause: error },
    );
  }
}

// ../packages/redis/src/channel-state-store.ts
import { randomUUID } from 'node:crypto';

// ../packages/redis/src/channel-state-keys.ts
function channelStateKeys(prefix) {
  return {
    failures: (id) => `${prefix}:{${id}}:failures`,
    disabled: (id) => `${prefix}:{${id}}:disabled`,
    once: (id, token) => `${prefix}:{${id}}:once:${token}`,
    disabledChannels: `${prefix}:disabled-channels`,
  };
}

// ../packages/redis/src/key-slot.ts
var SLOTS = 16384;
function crc16(bytes) {
  let crc = 0;
  for (const byte of bytes) {
    crc ^= byte << 8;
    for (let bit = 0; bit < 8; bit++) {
      crc = crc & 32768 ? ((crc << 1) ^ 4129) & 65535 : (crc << 1) & 65535;
    }
  }
  return crc;
}
var encoder = new TextEncoder();
function keySlot(key) {
  const open = key.indexOf('{');
  const close = open < 0 ? -1 : key.indexOf('}', open + 1);
  const hashed = close > open + 1 ? key.slice(open + 1, close) : key;
  return crc16(encoder.encode(hashed)) % SLOTS;
}

// ../packages/redis/src/replication.ts
function connectionFor(client, key) {
  if (!('isCluster' in client && client.isCluster)) return client;
  const cluster = client;
  const owner = cluster.slots[keySlot(key)]?.[0];
  return cluster
    .nodes('master')
    .find((node) => `${node.options.host}:${node.options.port}` === owner);
}
var DURABILITIES = ['primary', 'replicated'];
async function waitForReplica(client, key, timeoutMs, what) {
  const connection = connectionFor(client, key);
  const replicas = connection ? await connection.wait(1, timeoutMs) : 0;
  if (replicas < 1) {
    throw new CspwatchRedisError(
      'not_replicated',
      `${what}: the primary stored it, but no replica confirmed it within ${timeoutMs} ms, so a failover could lose it`,
    );
  }
}

// ../packages/redis/src/store-options.ts
var CLIENT_METHODS = ['get', 'set', 'del', 'mget', 'multi', 'defineCommand'];
function resolveStoreOptions(what, options, defaultPrefix) {
  const issues = [];
  if (typeof options !== 'object' || options === null) {
    throwIfIssues(what, [{ path: '(options)', message: 'must be an object with `redis`' }]);
  }
  const { redis, prefix = defaultPrefix, durability = 'primary', replicaTimeoutMs = 1e3 } = options;
  if (typeof redis !== 'object' || redis === null) {
    issues.push({
      path: 'redis',
      message: 'is required: an ioredis client (new Redis(url) or new Cluster(nodes))',
    });
  } else if (CLIENT_METHODS.some((name) => typeof redis[name] !== 'function')) {
    issues.push({
      path: 'redis',
      message: 'must be an ioredis client (new Redis(url) or new Cluster(nodes))',
    });
  }
  if (typeof prefix !== 'string' || prefix === '' || prefix.endsWith(':')) {
    issues.push({ path: 'prefix', message: 'must be a non-empty string not ending in ":"' });
  }
  if (!DURABILITIES.includes(durability)) {
    issues.push({ path: 'durability', message: "must be 'primary' or 'replicated'" });
  }
  if (!Number.isSafeInteger(replicaTimeoutMs) || replicaTimeoutMs < 1 || replicaTimeoutMs > 6e4) {
    issues.push({ path: 'replicaTimeoutMs', message: 'must be an integer from 1 to 60000 (ms)' });
  }
  const known = /* @__PURE__ */ new Set(['redis', 'prefix', 'durability', 'replicaTimeoutMs']);
  for (const key of Object.keys(options)) {
    if (!known.has(key)) issues.push({ path: key, message: 'unknown option' });
  }
  throwIfIssues(what, issues);
  return { redis, prefix, durability, replicaTimeoutMs };
}

// ../packages/redis/src/channel-state-store.ts
var DEFAULT_CHANNEL_STATE_PREFIX = 'cspwatch:channel';
var RECORD_ATTEMPT = `
if ARGV[1] == '1' then
  redis.call('SET', KEYS[1], '0')
  return '0:0:' .. redis.call('EXISTS', KEYS[2])
end
local done = redis.call('GET', KEYS[3])
if done then return done end
local failures = redis.call('INCR', KEYS[1])
local now = 0
if failures >= tonumber(ARGV[2]) and redis.call('SET', KEYS[2], '1', 'NX') then now = 1 end
local disabled = now
if now == 0 then disabled = redis.call('EXISTS', KEYS[2]) end
local reply = failures .. ':' .. now .. ':' .. disabled
redis.call('SET', KEYS[3], reply, 'PX', 600000)
return reply`;
var SCRIPT_NAME = 'cspwatchRecordChannelAttempt';
function withRecordScript(redis) {
  if (!(SCRIPT_NAME in redis)) {
    redis.defineCommand(SCRIPT_NAME, { numberOfKeys: 3, lua: RECORD_ATTEMPT });
  }
  return redis;
}
function toRecordedAttempt(reply) {
  const [failures, now, disabled] = reply.split(':');
  return {
    consecutiveFailures: Number(failures),
    disabled: disabled === '1',
    disabledNow: now === '1',
  };
}
function createRedisChannelStateStore(options) {
  const { redis, prefix, durability, replicaTimeoutMs } = resolveStoreOptions(
    'createRedisChannelStateStore',
    options,
    DEFAULT_CHANNEL_STATE_PREFIX,
  );
  const keys = channelStateKeys(prefix);
  const scripted = withRecordScript(redis);
  const call = (what, run) => callRedis(`channel state ${what}`, run);
  const indexDisabled = async (channelId, disabled) => {
    const index = (on) =>
      on
        ? redis.sadd(keys.disabledChannels, channelId)
        : redis.srem(keys.disabledChannels, channelId);
    await index(disabled);
    const flagged = (await redis.exists(keys.disabled(channelId))) === 1;
    if (flagged !== disabled) await index(flagged);
  };
  return {
    get: (channelId) =>
      call('get', async () => {
        const [failures, disabled] = await redis.mget(
          keys.failures(channelId),
          keys.disabled(channelId),
        );
        return { consecutiveFailures: Number(failures ?? 0), disabled: disabled !== null };
      }),
    recordAttempt: (channelId, attempt) =>
      call('recordAttempt', async () => {
        const recorded = toRecordedAttempt(
          await scripted[SCRIPT_NAME](
            keys.failures(channelId),
            keys.disabled(channelId),
            keys.once(channelId, randomUUID()),
            attempt.ok ? '1' : '0',
            String(attempt.failuresToDisable),
          ),
        );
        if (recorded.disabledNow) await indexDisabled(channelId, true);
        if (recorded.disabledNow && durability === 'replicated') {
          await waitForReplica(redis, keys.disabled(channelId), replicaTimeoutMs, 'disable');
        }
        return recorded;
      }),
    disable: (channelId) =>
      call('disable', async () => {
        const token = randomUUID();
        const previous = await redis.set(keys.disabled(channelId), token, 'NX', 'GET');
        const disabledNow = previous === null || previous === token;
        if (disabledNow) await indexDisabled(channelId, true);
        return disabledNow;
      }),
    enable: (channelId) =>
      call('enable', async () => {
        const replies = await redis
          .multi()
          .del(keys.disabled(channelId))
          .set(keys.failures(channelId), '0')
          .exec();
        const failed = replies?.find(([error]) => error !== null)?.[0];
        if (replies === null || failed) throw failed ?? new Error('MULTI was discarded');
        await indexDisabled(channelId, false);
      }),
  };
}

// ../packages/redis/src/telemetry/tracing.ts
var OFF = Object.freeze({
  send: (_channelId, _alertId, add) => add({}),
  process: (_job, run) => run(),
});
var createQueueTracing = (_queueName, _provider) => OFF;
var noteAttemptOutcome = (_ok, _cause) => {};
var isTracerProvider = (value) =>
  typeof value === 'object' && value !== null && typeof value.getTracer === 'function';

// ../packages/redis/src/queue/connection.ts
import {
  Cluster,
  Redis,
} from '/work/wt/trace-queue/node_modules/.pnpm/ioredis@5.11.1/node_modules/ioredis/built/index.js';

// ../packages/redis/src/queue/scripts.ts
var APPEND_ENTRY_ONCE = `
if redis.call('SET', KEYS[2], '1', 'NX', 'PX', 600000) then
  redis.call('XADD', KEYS[1], 'MAXLEN', ARGV[2], '*', 'e', ARGV[1])
  if ARGV[3] ~= '' then redis.call('XTRIM', KEYS[1], 'MINID', ARGV[3]) end
  redis.call('PEXPIRE', KEYS[1], ARGV[4])
end`;
var APPEND_HISTORY = `${APPEND_ENTRY_ONCE}
return 1`;
var FINISH_ATTEMPT = `${APPEND_ENTRY_ONCE}
redis.call('ZREM', KEYS[3], ARGV[5])
return redis.call('ZPOPMIN', KEYS[4])`;
var APPEND_ALERT = `
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return 1`;
var ACQUIRE_SLOT = `
local cap = tonumber(ARGV[4])
if redis.call('ZCARD', KEYS[1]) >= cap then
  redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[2])
  if redis.call('ZCARD', KEYS[1]) >= cap then return 0 end
end
redis.call('ZADD', KEYS[1], ARGV[3], ARGV[1])
redis.call('PEXPIRE', KEYS[1], ARGV[5])
return 1`;
var WAIT_FOR_SLOT = `
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[2])
if redis.call('ZCARD', KEYS[1]) < tonumber(ARGV[3]) then return 1 end
redis.call('ZADD', KEYS[2], 'NX', ARGV[2], ARGV[1])
redis.call('PEXPIRE', KEYS[2], ARGV[4])
return 0`;
var RELEASE_SLOT = `
redis.call('ZREM', KEYS[1], ARGV[1])
return redis.call('ZPOPMIN', KEYS[2])`;
var NEXT_WAITING = `return redis.call('ZPOPMIN', KEYS[1])`;
var PARK = `
if ARGV[4] == '1' and redis.call('EXISTS', KEYS[3]) == 0 then return 0 end
redis.call('ZADD', KEYS[1], ARGV[2], ARGV[1])
redis.call('HSET', KEYS[2], ARGV[1], ARGV[3])
return 1`;
var TAKE_EXPIRED = `
local ids = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, tonumber(ARGV[2]))
local out = {}
for _, id in ipairs(ids) do
  local json = redis.call('HGET', KEYS[2], id)
  redis.call('ZREM', KEYS[1], id)
  redis.call('HDEL', KEYS[2], id)
  if json then table.insert(out, json) end
end
return out`;
var SCRIPTS = {
  cspwatchAppendHistory: { numberOfKeys: 2, lua: APPEND_HISTORY },
  cspwatchFinishAttempt: { numberOfKeys: 4, lua: FINISH_ATTEMPT },
  cspwatchAppendAlert: { numberOfKeys: 1, lua: APPEND_ALERT },
  cspwatchAcquireSlot: { numberOfKeys: 1, lua: ACQUIRE_SLOT },
  cspwatchWaitForSlot: { numberOfKeys: 2, lua: WAIT_FOR_SLOT },
  cspwatchReleaseSlot: { numberOfKeys: 2, lua: RELEASE_SLOT },
  cspwatchNextWaiting: { numberOfKeys: 1, lua: NEXT_WAITING },
  cspwatchPark: { numberOfKeys: 3, lua: PARK },
  cspwatchTakeExpired: { numberOfKeys: 2, lua: TAKE_EXPIRED },
};
function defineQueueScripts(redis) {
  for (const [name, definition] of Object.entries(SCRIPTS)) {
    if (!(name in redis)) redis.defineCommand(name, definition);
  }
  return redis;
}

// ../packages/redis/src/queue/connection.ts
function connect(connection, settings, redirectionsFor) {
  let redis;
  if (typeof connection === 'string') redis = new Redis(connection, settings);
  else if ('cluster' in connection) {
    const { enableAutoPipelining, enableOfflineQueue, ...perNode } = settings;
    const options = connection.clusterOptions ?? {};
    const retryMs = options.retryDelayOnTryAgain ?? 100;
    redis = new Cluster([...connection.cluster], {
      maxRedirections: 2 * Math.ceil(redirectionsFor / Math.max(1, retryMs)),
      ...options,
      ...(enableAutoPipelining === void 0 ? {} : { enableAutoPipelining }),
      ...(enableOfflineQueue === void 0 ? {} : { enableOfflineQueue }),
      redisOptions: { ...options.redisOptions, ...perNode },
    });
  } else redis = new Redis({ ...connection, ...settings });
  return defineQueueScripts(redis);
}
function connectProducer(connection, timeoutMs) {
  const redis = connect(
    connection,
    {
      enableOfflineQueue: false,
      maxRetriesPerRequest: 1,
      connectTimeout: timeoutMs,
      commandTimeout: timeoutMs,
    },
    timeoutMs,
  );
  redis.on('error', () => {});
  return redis;
}
function connectWorker(connection, onError, settings = {}) {
  const redis = connect(
    connection,
    { ...settings, maxRetriesPerRequest: null, enableReadyCheck: true },
    6e4,
  );
  redis.on('error', onError);
  return redis;
}
function withTimeout(what, work, timeoutMs) {
  let timer;
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(
      () =>
        reject(
          new CspwatchRedisError(
            'redis_unavailable',
            `${what}: Redis is unreachable (no answer within ${timeoutMs} ms); nothing was recorded, retry later`,
          ),
        ),
      timeoutMs,
    );
  });
  work.catch(() => {});
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}
var waitsByClient = /* @__PURE__ */ new WeakMap();
function startWait(redis) {
  const waiters = /* @__PURE__ */ new Set();
  const settle = (ready) => {
    wait.stop();
    for (const waiter of waiters) waiter(ready);
  };
  const onReady = () => settle(true);
  const onEnd = () => settle(false);
  const wait = {
    waiters,
    stop() {
      redis.off('ready', onReady);
      redis.off('end', onEnd);
      if (waitsByClient.get(redis) === wait) waitsByClient.delete(redis);
    },
  };
  redis.once('ready', onReady);
  redis.once('end', onEnd);
  waitsByClient.set(redis, wait);
  return wait;
}
function joinWait(redis, onSettled) {
  const wait = waitsByClient.get(redis) ?? startWait(redis);
  wait.waiters.add(onSettled);
  return () => {
    wait.waiters.delete(onSettled);
    if (wait.waiters.size === 0) wait.stop();
  };
}
var closed = (what) => new CspwatchRedisError('invalid_input', `${what}: the queue is closed`);
function untilReady(what, redis, timeoutMs) {
  if (redis.status === 'ready') return Promise.resolve();
  if (redis.status === 'end') return Promise.reject(closed(what));
  let leave = () => {};
  const ready = new Promise((resolve, reject) => {
    leave = joinWait(redis, (isReady) => (isReady ? resolve() : reject(closed(what))));
  });
  return withTimeout(what, ready, timeoutMs).finally(leave);
}

// ../packages/redis/src/queue/history.ts
import { randomUUID as randomUUID2 } from 'node:crypto';

function retentionArgs(retention) {
  const trim = Math.random() < 1 / 16 ? String(Date.now() - retention.maxAgeMs) : '';
  return [String(retention.maxEntries), trim, String(retention.maxAgeMs)];
}
function entryCommands(keys, entry, retention) {
  const stream = keys.history(entry.channelId);
  const json = JSON.stringify(entry);
  return {
    channelKeys: [stream, `${stream}:once:${randomUUID2()}`],
    channelArgs: [json, ...retentionArgs(retention)],
    alert: [
      keys.alertHistory(entry.alertId),
      `${Date.now()}-${randomUUID2().slice(0, 8)}`,
      json,
      String(retention.maxAgeMs),
    ],
  };
}
async function appendHistory(redis, keys, entry, retention) {
  const commands = entryCommands(keys, entry, retention);
  await Promise.all([
    redis.cspwatchAppendHistory(...commands.channelKeys, ...commands.channelArgs),
    redis.cspwatchAppendAlert(...commands.alert),
  ]);
}
async function finishAttempt(redis, keys, entry, retention, jobId) {
  const { channelId } = entry;
  const commands = entryCommands(keys, entry, retention);
  const [popped] = await Promise.all([
    redis.cspwatchFinishAttempt(
      ...commands.channelKeys,
      keys.inFlight(channelId),
      keys.waitingRoom(channelId),
      ...commands.channelArgs,
      jobId,
    ),
    redis.cspwatchAppendAlert(...commands.alert),
  ]);
  return popped[0] ?? null;
}
var CURSOR = /^\d{1,20}-\d{1,20}$/;
async function readHistory(redis, key, options, retention) {
  const { limit = 50, cursor = null } = options ?? {};
  if (!Number.isSafeInteger(limit) || limit < 1 || limit > 1e3) {
    throw new CspwatchRedisError(
      'invalid_input',
      'history limit must be an integer from 1 to 1000',
    );
  }
  if (cursor !== null && (typeof cursor !== 'string' || !CURSOR.test(cursor))) {
    throw new CspwatchRedisError(
      'invalid_input',
      'history cursor must be a nextCursor from a previous page',
    );
  }
  const end = `${Date.now() - retention.maxAgeMs}`;
  const rows = await redis.xrevrange(
    key,
    cursor === null ? '+' : `(${cursor}`,
    end,
    'COUNT',
    limit + 1,
  );
  const entries = rows.slice(0, limit).map(([id, fields]) => ({
    id,
    ...JSON.parse(fields[1] ?? '{}'),
  }));
  const last = entries.at(-1);
  return { entries, nextCursor: rows.length > limit && last ? last.id : null };
}
async function readAlertHistory(redis, keys, alertId, retention) {
  const fields = await redis.hgetall(keys.alertHistory(alertId));
  const since = Date.now() - retention.maxAgeMs;
  return Object.entries(fields)
    .map(([id, json]) => ({ id, ms: Number.parseInt(id, 10), entry: JSON.parse(json) }))
    .filter(({ ms }) => ms >= since)
    .sort((a, b) => a.ms - b.ms || a.entry.attempt - b.entry.attempt)
    .map(({ id, entry }) => ({ id, ...entry }));
}
function redactSecret(text, secret) {
  return text === null || secret === '' ? text : text.split(secret).join('[redacted]');
}

// ../packages/redis/src/queue/jobs.ts
import { randomUUID as randomUUID3 } from 'node:crypto';

// ../packages/redis/src/queue/retry-schedule.ts
var MAX_DELAY_MS = 30 * 24 * 36e5;
function checkRetrySchedule(issues, delaysMs, jitter) {
  if (delaysMs !== void 0) {
    if (!Array.isArray(delaysMs) || delaysMs.length === 0 || delaysMs.length > 100) {
      issues.push({
        path: 'attemptDelaysMs',
        message: 'must be an array of 1 to 100 delays in ms',
      });
    } else {
      delaysMs.forEach((delay, index) => {
        if (!Number.isSafeInteger(delay) || delay < 0 || delay > MAX_DELAY_MS) {
          issues.push({
            path: `attemptDelaysMs.${index}`,
            message: `must be an integer from 0 to ${MAX_DELAY_MS} ms (got ${String(delay)})`,
          });
        }
      });
    }
  }
  if (jitter !== void 0 && (typeof jitter !== 'number' || !(jitter >= 0 && jitter <= 1))) {
    issues.push({ path: 'jitter', message: 'must be a number from 0 to 1' });
  }
}
function delayBeforeAttempt(schedule, attemptIndex, random = Math.random) {
  const delay = schedule.delaysMs[Math.min(attemptIndex, schedule.delaysMs.length - 1)] ?? 0;
  return Math.floor(delay * (1 - schedule.jitter) + random() * delay * schedule.jitter);
}

// ../packages/redis/src/queue/jobs.ts
var DELIVER_JOB = 'deliver';
var BACKOFF_TYPE = 'cspwatch-schedule';
function deliveryJob(data, jobId = randomUUID3()) {
  const opts = {
    jobId,
    attempts: data.schedule.delaysMs.length,
    backoff: { type: BACKOFF_TYPE },
    delay: delayBeforeAttempt(data.schedule, 0),
    removeOnComplete: true,
    removeOnFail: { count: 1e4 },
  };
  return { name: DELIVER_JOB, data, opts };
}

// ../packages/redis/src/queue/keys.ts
import { createHash } from 'node:crypto';

function queueKeys(prefix, queueName) {
  const base = `${prefix}:${queueName}`;
  const channelStatePrefix = `${prefix}:channel`;
  return {
    channelStatePrefix,
    ...channelStateKeys(channelStatePrefix),
    history: (id) => `${base}:history:{${id}}`,
    parked: (id) => `${base}:parked:{${id}}`,
    parkedData: (id) => `${base}:parked-data:{${id}}`,
    parkedChannels: `${base}:parked-channels`,
    inFlight: (id) => `${base}:in-flight:{${id}}`,
    waitingRoom: (id) => `${base}:waiting-for-slot:{${id}}`,
    alertHistory: (id) => `${base}:alert-history:{${id}}`,
  };
}
function deliveryJobId(channelId, alertId) {
  return createHash('sha256').update(`${channelId}\0${alertId}`).digest('hex').slice(0, 40);
}

// ../packages/redis/src/queue/options.ts
var DELIVERY_QUEUE_DEFAULTS = Object.freeze({
  /** BullMQ queue name. */
  queueName: 'cspwatch-deliveries',
  /** BullMQ queues (shards) the deliveries are spread over. */
  shards: 1,
  /** Prefix of every key. */
  prefix: 'cspwatch',
  /** History entries kept per channel. */
  historyMaxEntries: 1e4,
  /** History kept for 7 days, ms. */
  historyMaxAgeMs: 7 * 24 * 36e5,
  /** Parked alerts expire after 7 days, ms. */
  parkedTtlMs: 7 * 24 * 36e5,
  /** Immediately, 5 s, 5 min, 30 min, 2 h. */
  attemptDelaysMs: Object.freeze([0, 5e3, 3e5, 18e5, 72e5]),
  /** Up to 20 % shorter at random. */
  jitter: 0.2,
  /** Producer calls fail after 5 s without Redis, ms. */
  commandTimeoutMs: 5e3,
  /** `enqueue` resolves once the primary stored the alert. */
  durability: 'primary',
  /** Largest alert `enqueue` takes: 256 KiB of JSON. */
  maxAlertBytes: 256 * 1024,
  /** Deliveries in flight per worker. */
  concurrency: 10,
  /** BullMQ job lock, ms. */
  lockDurationMs: 3e4,
  /** BullMQ stalled-job check period, ms. */
  stalledIntervalMs: 3e4,
  /** Stalls before BullMQ fails a job, which is then parked as `worker_error`. */
  maxStalledCount: 5,
  /** Attempts in flight at once per channel, across every worker. */
  maxInFlightPerChannel: 4,
  /** Longest wait in `close()` for the deliveries in flight, ms. */
  closeTimeoutMs: 3e4,
  /** Parked-alert expiry check period, ms. */
  parkedExpiryIntervalMs: 6e4,
});
var DAY_100 = 100 * 24 * 36e5;
function checkInteger(issues, path, value, min, max) {
  if (value === void 0) return;
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= min && value <= max)
    return;
  issues.push({ path, message: `must be an integer from ${min} to ${max} (got ${String(value)})` });
}
function checkName(issues, path, value) {
  if (value === void 0) return;
  if (typeof value !== 'string' || !/^[A-Za-z0-9_.-]{1,100}$/.test(value)) {
    issues.push({ path, message: 'must be 1-100 characters of A-Z, a-z, 0-9, _, . or -' });
  }
}
function checkConnection(issues, connection) {
  if (typeof connection === 'string' && /^rediss?:\/\//.test(connection)) return;
  if (typeof connection !== 'object' || connection === null || Array.isArray(connection)) {
    issues.push({
      path: 'connection',
      message:
        'is required: a redis:// URL, ioredis options such as { host, port }, or { cluster: [{ host, port }] }',
    });
    return;
  }
  if ('status' in connection && 'sendCommand' in connection) {
    issues.push({
      path: 'connection',
      message:
        'must describe where Redis is, not be a client: the queue opens its own connections (pass the URL, the options, or { cluster: [...] })',
    });
    return;
  }
  if ('cluster' in connection) {
    const { cluster } = connection;
    if (!Array.isArray(cluster) || cluster.length === 0) {
      issues.push({
        path: 'connection.cluster',
        message: "must list the cluster's seed nodes, e.g. [{ host: '10.0.0.1', port: 6379 }]",
      });
    }
  }
}
function resolveBaseOptions(options, known, issues) {
  const { connection, history = {} } = options;
  checkConnection(issues, connection);
  checkName(issues, 'queueName', options.queueName);
  checkName(issues, 'prefix', options.prefix);
  if (typeof history !== 'object' || history === null) {
    issues.push({ path: 'history', message: 'must be an object { maxEntries, maxAgeMs }' });
  } else {
    checkInteger(issues, 'history.maxEntries', history.maxEntries, 1, 1e6);
    checkInteger(issues, 'history.maxAgeMs', history.maxAgeMs, 1e3, DAY_100 * 10);
  }
  checkInteger(issues, 'parkedTtlMs', options.parkedTtlMs, 1, DAY_100 * 10);
  checkInteger(issues, 'shards', options.shards, 1, 256);
  if (options.tracerProvider !== void 0 && !isTracerProvider(options.tracerProvider)) {
    issues.push({
      path: 'tracerProvider',
      message: 'must be an OpenTelemetry TracerProvider (an object with getTracer)',
    });
  }
  const allowed = /* @__PURE__ */ new Set([
    'connection',
    'queueName',
    'prefix',
    'history',
    'parkedTtlMs',
    'shards',
    'tracerProvider',
    ...known,
  ]);
  for (const key of Object.keys(options)) {
    if (!allowed.has(key)) issues.push({ path: key, message: 'unknown option' });
  }
  const defaults = DELIVERY_QUEUE_DEFAULTS;
  return {
    connection,
    queueName: options.queueName ?? defaults.queueName,
    prefix: options.prefix ?? defaults.prefix,
    historyMaxEntries: history?.maxEntries ?? defaults.historyMaxEntries,
    historyMaxAgeMs: history?.maxAgeMs ?? defaults.historyMaxAgeMs,
    parkedTtlMs: options.parkedTtlMs ?? defaults.parkedTtlMs,
    shards: options.shards ?? defaults.shards,
    tracerProvider: options.tracerProvider,
  };
}
function checkOptionsObject(what, options) {
  if (typeof options !== 'object' || options === null) {
    throwIfIssues(what, [{ path: '(options)', message: 'must be an object with `connection`' }]);
  }
}

// ../packages/redis/src/queue/parking.ts
async function parkAlert(redis, keys, parked, onlyWhileDisabled) {
  const { entryId, channelId, parkedAt } = parked;
  const reply = await redis.cspwatchPark(
    keys.parked(channelId),
    keys.parkedData(channelId),
    keys.disabled(channelId),
    entryId,
    String(parkedAt),
    JSON.stringify(parked),
    onlyWhileDisabled ? '1' : '0',
  );
  if (reply !== 1) return false;
  await redis.zadd(keys.parkedChannels, 'LT', parkedAt, channelId);
  return true;
}
async function readParked(redis, keys, channelId, batch) {
  const ids = await redis.zrange(keys.parked(channelId), 0, batch - 1);
  if (ids.length === 0) return [];
  const rows = await redis.hmget(keys.parkedData(channelId), ...ids);
  return rows.flatMap((row) => (row === null ? [] : [JSON.parse(row)]));
}
async function unpark(redis, keys, channelId, entryIds) {
  await redis
    .multi()
    .zrem(keys.parked(channelId), ...entryIds)
    .hdel(keys.parkedData(channelId), ...entryIds)
    .exec();
}
async function takeExpired(redis, keys, channelId, cutoff, batch) {
  const rows = await redis.cspwatchTakeExpired(
    keys.parked(channelId),
    keys.parkedData(channelId),
    String(cutoff),
    String(batch),
  );
  return rows.map((row) => JSON.parse(row));
}
function channelsParkedBefore(redis, keys, cutoff, batch) {
  return redis.zrangebyscore(keys.parkedChannels, '-inf', cutoff, 'LIMIT', 0, batch);
}
async function reindexChannel(redis, keys, channelId) {
  const oldest = async () => (await redis.zrange(keys.parked(channelId), 0, 0, 'WITHSCORES'))[1];
  const first = await oldest();
  if (first !== void 0) {
    await redis.zadd(keys.parkedChannels, first, channelId);
    return;
  }
  await redis.zrem(keys.parkedChannels, channelId);
  const again = await oldest();
  if (again !== void 0) await redis.zadd(keys.parkedChannels, 'LT', again, channelId);
}
async function countAllParked(redis, keys) {
  const channels = await redis.zrange(keys.parkedChannels, 0, -1);
  const counts = await Promise.all(channels.map((id) => redis.zcard(keys.parked(id))));
  return counts.reduce((sum, count) => sum + count, 0);
}

// ../packages/contract/src/alert.ts
import * as z2 from '/work/wt/trace-queue/node_modules/.pnpm/zod@4.6.7/node_modules/zod/mini/index.js';

// ../packages/contract/src/text-rules.ts
import * as z from '/work/wt/trace-queue/node_modules/.pnpm/zod@4.6.7/node_modules/zod/mini/index.js';

var HTTP_URI_PATTERN = "^[Hh][Tt][Tt][Pp][Ss]?://[A-Za-z0-9\\-._~:/?#\\[\\]@!$&'()*+,;=%]+$";
var HTTP_URI = new RegExp(HTTP_URI_PATTERN);
var DateTimeSchema = z.string();
var integer = () => z.number().check(z.refine(Number.isSafeInteger, 'must be an integer'));

// ../packages/contract/src/alert.ts
var NEW_TYPE_EVENT = 'csp-violation:new-type';
var UUID_SHAPE = /^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}$/;
var MILLISECOND_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
var windowEdge = () => z2.string().check(z2.regex(MILLISECOND_DATE_TIME));
var NewTypeFindingSchema = z2.strictObject({
  kind: z2.literal(NEW_TYPE_EVENT),
  key: z2.string(),
  effectiveDirective: z2.string().check(z2.minLength(1)),
  blockedUrlOrigin: z2.string().check(z2.minLength(1)),
  firstSeen: DateTimeSchema,
  count: integer().check(z2.minimum(1)),
});
var AlertWebsiteSchema = z2.strictObject({
  id: z2.string(),
  name: z2.string(),
  url: z2.string(),
});
var AlertWindowSchema = z2.strictObject({ start: windowEdge(), end: windowEdge() });
var AlertSchema = z2.strictObject({
  id: z2.string().check(z2.regex(UUID_SHAPE)),
  eventType: z2.literal(NEW_TYPE_EVENT),
  rule: z2.string(),
  website: AlertWebsiteSchema,
  findings: z2.array(NewTypeFindingSchema).check(z2.minLength(1)),
  findingsCount: integer().check(z2.minimum(1)),
  window: AlertWindowSchema,
  dashboardUrl: z2.string(),
});

// ../packages/contract/src/field-errors.ts
var UNKNOWN_FIELD_MESSAGE = 'is not a known field: remove it or check its spelling';
function toFieldErrors(issues, prefix = '') {
  const errors = [];
  const add = (segments, message) => {
    const path = [prefix, ...segments.map(String)].filter(Boolean).join('.') || '(body)';
    if (!errors.some((known) => known.path === path)) errors.push({ path, message });
  };
  for (const issue of issues) {
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) add([...issue.path, key], UNKNOWN_FIELD_MESSAGE);
    } else {
      add(issue.path, issue.message);
    }
  }
  return errors;
}

// ../packages/contract/src/redact-urls.ts
var REDACTED = '[redacted]';
var SPECIAL_SCHEMES = /* @__PURE__ */ new Set(['http', 'https', 'ws', 'wss', 'ftp']);
var SPACE = /\s/;
var TEXT_BREAK = /[\s"`<>]/;
var LETTER = /[A-Za-z]/;
var SCHEME_CHAR = /[A-Za-z0-9+.-]/;
var OPENER = /[\s"'`(<[{=,;]/;
var VALUE_END = /[&#\s"'`<>\\]/;
var parse = (text) => {
  try {
    return new URL(text);
  } catch {
    return void 0;
  }
};
function scan(text) {
  let out = '';
  let done = 0;
  let inUrl = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    let authority = -1;
    let special = true;
    if (SPACE.test(char)) inUrl = false;
    else if (char === ':') {
      let start = i;
      while (start > 0 && SCHEME_CHAR.test(text[start - 1])) start--;
      while (start < i && !LETTER.test(text[start])) start++;
      const scheme = text.slice(start, i).toLowerCase();
      special = SPECIAL_SCHEMES.has(scheme);
      if (special) {
        authority = i + 1;
        while (text[authority] === '/' || text[authority] === '\\') authority++;
      } else if (scheme && text.startsWith('//', i + 1)) authority = i + 3;
    } else if (char === '/' && (i === 0 || OPENER.test(text[i - 1]))) {
      inUrl = true;
      if (text[i + 1] === '/') authority = i + 2;
    } else if (inUrl && (char === '?' || char === '#')) {
      let part = i + 1;
      for (;;) {
        let end = part;
        let value = part;
        while (end < text.length && !VALUE_END.test(text[end])) {
          if (text[end] === '=' && value === part) value = end + 1;
          end++;
        }
        if (end > value) {
          out += text.slice(done, value) + REDACTED;
          done = end;
        }
        if (text[end] !== '&') {
          inUrl = text[end] === '#';
          i = end - 1;
          break;
        }
        part = end + 1;
      }
    }
    if (authority < 0) continue;
    inUrl = true;
    for (;;) {
      let end = authority;
      let at = -1;
      for (; end < text.length; end++) {
        const next = text[end];
        if (next === '/' || next === '?' || next === '#' || TEXT_BREAK.test(next)) break;
        if (special && next === '\\') break;
        if (next === '@') at = end;
      }
      if (at >= 0) {
        out += text.slice(done, authority);
        done = at + 1;
      }
      i = end - 1;
      const slash = text[end] === '/' || text[end] === '\\';
      if (!special || char !== ':' || at < 0 || end !== at + 1 || !slash) break;
      authority = end;
      while (text[authority] === '/' || text[authority] === '\\') authority++;
    }
  }
  return out + text.slice(done);
}
function redactUrls(text) {
  const url = TEXT_BREAK.test(text) && text.includes('@') ? parse(text) : void 0;
  if (!url || (url.username === '' && url.password === '')) return scan(text);
  url.username = '';
  url.password = '';
  return scan(url.href);
}

// ../packages/redis/src/queue/queue-input.ts
import { en } from '/work/wt/trace-queue/node_modules/.pnpm/zod@4.6.7/node_modules/zod/locales/index.js';

function checkChannelId(channelId) {
  if (typeof channelId !== 'string' || channelId === '' || channelId.length > 256) {
    throw new CspwatchRedisError(
      'invalid_input',
      'channelId must be a non-empty string (at most 256 characters)',
    );
  }
}
function checkAlertId(alertId) {
  if (typeof alertId !== 'string' || alertId === '' || alertId.length > 256) {
    throw new CspwatchRedisError(
      'invalid_input',
      "alertId must be an alert's payload id: a non-empty string (at most 256 characters)",
    );
  }
}
var parseOptions = { error: en().localeError };
var MAX_REPORTED = 20;
function firstIssues(issues) {
  return issues
    .slice(0, MAX_REPORTED)
    .map((issue) =>
      issue.code === 'unrecognized_keys'
        ? { ...issue, keys: issue.keys.slice(0, MAX_REPORTED) }
        : issue,
    );
}
function refuse(issues) {
  throwIfIssues('enqueue', issues, 'invalid_input');
  throw new CspwatchRedisError('invalid_input', 'enqueue: the alert was refused');
}
function toJobAlert(alert, maxAlertBytes) {
  const parsed = AlertSchema.safeParse(alert, parseOptions);
  if (!parsed.success) {
    refuse(toFieldErrors(firstIssues(parsed.error.issues), 'alert').slice(0, MAX_REPORTED));
  }
  const bytes = Buffer.byteLength(JSON.stringify(parsed.data), 'utf8');
  if (bytes > maxAlertBytes) {
    refuse([
      {
        path: 'alert',
        message: `is ${bytes} bytes as JSON, over the cap of ${maxAlertBytes} bytes: send fewer or shorter findings, or raise the maxAlertBytes option of createDeliveryQueue`,
      },
    ]);
  }
  return parsed.data;
}

// ../packages/redis/src/queue/release.ts
var BATCH = 500;
async function recordEach(redis, keys, kind, batch, retention) {
  const at = /* @__PURE__ */ new Date().toISOString();
  await Promise.all(
    batch.map(({ alert, channelId, attempts }) =>
      appendHistory(
        redis,
        keys,
        { kind, alertId: alert.id, channelId, attempt: attempts, at, reason: null },
        retention,
      ),
    ),
  );
}
async function releaseParkedAlerts(redis, target, keys, channelId, schedule, retention) {
  let released = 0;
  for (;;) {
    const batch = await readParked(redis, keys, channelId, BATCH);
    if (batch.length === 0) break;
    await target.add(
      channelId,
      batch.map(({ alert, attempts, traceContext }) =>
        deliveryJob({
          channelId,
          alert,
          priorAttempts: attempts,
          schedule,
          ...(traceContext ? { traceContext } : {}),
        }),
      ),
    );
    await unpark(
      redis,
      keys,
      channelId,
      batch.map((parked) => parked.entryId),
    );
    await recordEach(redis, keys, 'released', batch, retention);
    released += batch.length;
  }
  await reindexChannel(redis, keys, channelId);
  return released;
}
async function expireParkedAlerts(redis, keys, ttlMs, retention) {
  let expired = 0;
  const cutoff = Date.now() - ttlMs;
  for (;;) {
    const channels = await channelsParkedBefore(redis, keys, cutoff, BATCH);
    if (channels.length === 0) return expired;
    for (const channelId of channels) {
      for (;;) {
        const batch = await takeExpired(redis, keys, channelId, cutoff, BATCH);
        await recordEach(redis, keys, 'expired', batch, retention);
        expired += batch.length;
        if (batch.length < BATCH) break;
      }
      await reindexChannel(redis, keys, channelId);
    }
  }
}

// ../packages/redis/src/queue/shard-queues.ts
import { Queue } from '/work/wt/trace-queue/node_modules/.pnpm/bullmq@6.7.0_ioredis@5.11.1/node_modules/bullmq/dist/cjs/index.js';

// ../packages/redis/src/queue/shards.ts
function shardTag(index, count) {
  const low = Math.floor((index * SLOTS) / count);
  const high = Math.floor(((index + 1) * SLOTS) / count);
  for (let k = 0; ; k++) {
    const tag = `${index}.${k}`;
    const slot = keySlot(tag);
    if (slot >= low && slot < high) return tag;
  }
}
function shardPrefix(prefix, index, count) {
  return `${prefix}:{${shardTag(index, count)}}`;
}
function shardOf(channelId, count) {
  return keySlot(`{${channelId}}`) % count;
}

// ../packages/redis/src/queue/shard-queues.ts
function openShardQueues(connection, prefix, queueName, shards, onError) {
  const all = Array.from({ length: shards }, (_, index) => {
    const queue = new Queue(queueName, { connection, prefix: shardPrefix(prefix, index, shards) });
    queue.on('error', onError);
    return queue;
  });
  const forChannel = (channelId) => all[shardOf(channelId, shards)];
  return {
    all,
    forChannel,
    async add(channelId, jobs) {
      if (jobs.length > 0) await forChannel(channelId).addBulk([...jobs]);
    },
    async close() {
      await Promise.all(all.map((queue) => queue.close().catch(() => {})));
    },
  };
}

// ../packages/redis/src/queue/delivery-queue.ts
function checkDurability(value) {
  if (DURABILITIES.includes(value)) return value;
  throw new CspwatchRedisError('invalid_input', "durability must be 'primary' or 'replicated'");
}
function createDeliveryQueue(options) {
  const what = 'createDeliveryQueue';
  checkOptionsObject(what, options);
  const issues = [];
  const base = resolveBaseOptions(
    options,
    ['attemptDelaysMs', 'jitter', 'commandTimeoutMs', 'maxAlertBytes', 'durability'],
    issues,
  );
  checkRetrySchedule(issues, options.attemptDelaysMs, options.jitter);
  checkInteger(issues, 'commandTimeoutMs', options.commandTimeoutMs, 1, 6e5);
  checkInteger(issues, 'maxAlertBytes', options.maxAlertBytes, 1024, 16 * 1024 * 1024);
  if (options.durability !== void 0 && !DURABILITIES.includes(options.durability)) {
    issues.push({ path: 'durability', message: "must be 'primary' or 'replicated'" });
  }
  throwIfIssues(what, issues);
  const defaults = DELIVERY_QUEUE_DEFAULTS;
  const schedule = {
    delaysMs: [...(options.attemptDelaysMs ?? defaults.attemptDelaysMs)],
    jitter: options.jitter ?? defaults.jitter,
  };
  const timeoutMs = options.commandTimeoutMs ?? defaults.commandTimeoutMs;
  const maxAlertBytes = options.maxAlertBytes ?? defaults.maxAlertBytes;
  const retention = { maxEntries: base.historyMaxEntries, maxAgeMs: base.historyMaxAgeMs };
  const keys = queueKeys(base.prefix, base.queueName);
  const durability = options.durability ?? defaults.durability;
  const redis = connectProducer(base.connection, timeoutMs);
  const queues = openShardQueues(redis, base.prefix, base.queueName, base.shards, () => {});
  const store = createRedisChannelStateStore({ redis, prefix: keys.channelStatePrefix });
  const call = (name, work) =>
    callRedis(name, async () => {
      const deadline = Date.now() + timeoutMs;
      await untilReady(name, redis, timeoutMs);
      return withTimeout(name, work(deadline), Math.max(1, deadline - Date.now()));
    });
  const tracing = createQueueTracing(base.queueName, base.tracerProvider);
  const release = (channelId) =>
    releaseParkedAlerts(redis, queues, keys, channelId, schedule, retention);
  return {
    async enqueue(channelId, alert, enqueueOptions = {}) {
      checkChannelId(channelId);
      const data = toJobAlert(alert, maxAlertBytes);
      const wanted = checkDurability(enqueueOptions?.durability ?? durability);
      return tracing.send(channelId, data.id, (traced) => {
        const job = deliveryJob(
          { channelId, alert: data, priorAttempts: 0, schedule, ...traced },
          deliveryJobId(channelId, data.id),
        );
        return call('enqueue', async (deadline) => {
          const queue = queues.forChannel(channelId);
          const added = await queue.add(job.name, job.data, job.opts);
          if (wanted === 'replicated') {
            const waitMs = Math.max(1, deadline - Date.now());
            await waitForReplica(redis, queue.opts.prefix ?? '', waitMs, 'enqueue');
          }
          return { jobId: added.id ?? job.opts.jobId };
        });
      });
    },
    async enableChannel(channelId) {
      checkChannelId(channelId);
      return call('enableChannel', async () => {
        await store.enable(channelId);
        return { released: await release(channelId) };
      });
    },
    async releaseParked(channelId) {
      checkChannelId(channelId);
      return call('releaseParked', async () => ({ released: await release(channelId) }));
    },
    expireParked: () =>
      call('expireParked', async () => ({
        expired: await expireParkedAlerts(redis, keys, base.parkedTtlMs, retention),
      })),
    async getHistory(channelId, pageOptions = {}) {
      checkChannelId(channelId);
      return call('getHistory', () =>
        readHistory(redis, keys.history(channelId), pageOptions, retention),
      );
    },
    async getAlertHistory(alertId) {
      checkAlertId(alertId);
      return call('getAlertHistory', () => readAlertHistory(redis, keys, alertId, retention));
    },
    async getChannelState(channelId) {
      checkChannelId(channelId);
      return call('getChannelState', () => store.get(channelId));
    },
    async countParked(channelId) {
      checkChannelId(channelId);
      return call('countParked', () => redis.zcard(keys.parked(channelId)));
    },
    getCounts: () =>
      call('getCounts', async () => {
        const states = ['waiting', 'prioritized', 'active', 'delayed', 'failed'];
        const perShard = await Promise.all(queues.all.map((q) => q.getJobCounts(...states)));
        const sum = (state) => perShard.reduce((total, counts) => total + (counts[state] ?? 0), 0);
        return {
          waiting: sum('waiting') + sum('prioritized'),
          active: sum('active'),
          delayed: sum('delayed'),
          failed: sum('failed'),
          parked: await countAllParked(redis, keys),
        };
      }),
    countDisabledChannels: () =>
      call('countDisabledChannels', () => redis.scard(keys.disabledChannels)),
    async close() {
      await queues.close();
      redis.disconnect();
    },
  };
}

// ../packages/webhook-sender/src/errors.ts
var MARKER2 = /* @__PURE__ */ Symbol.for('@cspwatch/webhook-sender.WebhookSenderError');
var WebhookSenderError = class extends Error {
  /** Always `'WebhookSenderError'`. */
  name = 'WebhookSenderError';
  /** What went wrong; see {@link WebhookSenderErrorCode}. */
  code;
  /** Every problem found, in field order. At least one. */
  issues;
  /**
   * @param code - the error code
   * @param issues - the problems found (the message lists them)
   * @param options - `cause`, passed through to `Error`
   */
  constructor(code, issues, options) {
    const shown2 = issues.map((issue) => ({
      ...issue,
      path: redactUrls(issue.path),
      message: redactUrls(issue.message),
    }));
    const summary = shown2.map((issue) => `${issue.path}: ${issue.message}`).join('; ');
    super(`${code.replace(/_/g, ' ')}: ${summary}`, options);
    this.code = code;
    this.issues = Object.freeze(shown2);
    Object.defineProperty(this, MARKER2, { value: true });
  }
};
function isWebhookSenderError(value) {
  return typeof value === 'object' && value !== null && MARKER2 in value;
}

// ../packages/webhook-sender/src/channels/channel-state.ts
var FAILURES_BEFORE_DISABLE = 5;
function createMemoryChannelStateStore() {
  const failures = /* @__PURE__ */ new Map();
  const disabled = /* @__PURE__ */ new Set();
  return {
    async get(channelId) {
      return {
        consecutiveFailures: failures.get(channelId) ?? 0,
        disabled: disabled.has(channelId),
      };
    },
    async recordAttempt(channelId, { ok, failuresToDisable }) {
      const count = ok ? 0 : (failures.get(channelId) ?? 0) + 1;
      failures.set(channelId, count);
      const disabledNow = !ok && count >= failuresToDisable && !disabled.has(channelId);
      if (disabledNow) disabled.add(channelId);
      return { consecutiveFailures: count, disabled: disabled.has(channelId), disabledNow };
    },
    async disable(channelId) {
      if (disabled.has(channelId)) return false;
      disabled.add(channelId);
      return true;
    },
    async enable(channelId) {
      disabled.delete(channelId);
      failures.set(channelId, 0);
    },
  };
}

// ../packages/webhook-sender/src/target/host-name.ts
var refuse2 = (reason, message) => ({
  allowed: false,
  reason,
  message,
});
function judgeHostName(hostname, allowLocalhost) {
  const name = (hostname.endsWith('.') ? hostname.slice(0, -1) : hostname).toLowerCase();
  const labels = name.split('.');
  if (labels.some((label) => label === '')) {
    return refuse2('empty_label', `host "${hostname}" has an empty label`);
  }
  const last = labels[labels.length - 1];
  if (last === 'localhost') {
    if (allowLocalhost) return { allowed: true, name, localhost: true };
    return refuse2('localhost_name', `host "${hostname}" is localhost, which is not public`);
  }
  if (last === 'local') {
    return refuse2('local_name', `host "${hostname}" ends in .local (multicast DNS), not public`);
  }
  if (last === 'internal') {
    return refuse2('internal_name', `host "${hostname}" ends in .internal, not public`);
  }
  if (labels.length < 2) {
    return refuse2('single_label_name', `host "${hostname}" has no dot; use a public DNS name`);
  }
  return { allowed: true, name, localhost: false };
}

// ../packages/webhook-sender/src/target/ip-policy.ts
import ipaddr from '/work/wt/trace-queue/node_modules/.pnpm/ipaddr.js@2.5.0/node_modules/ipaddr.js/lib/ipaddr.js';

var cidrs = (list) => list.map((cidr) => [cidr, ipaddr.parseCIDR(cidr)]);
var IPV4_DENIED = cidrs([
  '0.0.0.0/8',
  '10.0.0.0/8',
  '100.64.0.0/10',
  '127.0.0.0/8',
  '169.254.0.0/16',
  '172.16.0.0/12',
  '192.0.0.0/24',
  '192.0.2.0/24',
  '192.88.99.0/24',
  '192.168.0.0/16',
  '198.18.0.0/15',
  '198.51.100.0/24',
  '203.0.113.0/24',
  '224.0.0.0/4',
  '240.0.0.0/4',
  '255.255.255.255/32',
]);
var IPV6_GLOBAL_UNICAST = ipaddr.parseCIDR('2000::/3');
var IPV6_DENIED = cidrs(['2001::/23', '2001:db8::/32', '2002::/16', '3fff::/20']);
var IPV6_EMBEDDING_RANGES = /* @__PURE__ */ new Set([
  'ipv4Mapped',
  'rfc6145',
  'rfc6052',
  '6to4',
  'teredo',
]);
var rejected = (reason, range) => ({
  allowed: false,
  reason,
  range,
});
function classifyIPv4(address, policy) {
  const range = address.range();
  if (range === 'loopback' && policy !== 'public') {
    return { allowed: true, family: 4, loopback: true };
  }
  if (policy === 'loopback_only') return rejected('not_loopback', range);
  if (range !== 'unicast') return rejected('ipv4_not_public', range);
  const denied = IPV4_DENIED.find(([, block]) => address.match(block));
  if (denied) return rejected('ipv4_not_public', denied[0]);
  return { allowed: true, family: 4, loopback: false };
}
function embedsIPv4(address) {
  if (IPV6_EMBEDDING_RANGES.has(address.range())) return true;
  const [a, b, c, d, e, f, g, h] = address.parts;
  return a === 0 && b === 0 && c === 0 && d === 0 && e === 0 && f === 0 && (g !== 0 || h > 1);
}
function classifyIPv6(address, policy) {
  const range = address.range();
  if (range === 'loopback' && policy !== 'public') {
    return { allowed: true, family: 6, loopback: true };
  }
  if (policy === 'loopback_only') return rejected('not_loopback', range);
  if (embedsIPv4(address)) return rejected('ipv6_embeds_ipv4', range);
  if (!address.match(IPV6_GLOBAL_UNICAST)) return rejected('ipv6_not_public', range);
  if (range !== 'unicast') return rejected('ipv6_not_public', range);
  const denied = IPV6_DENIED.find(([, block]) => address.match(block));
  if (denied) return rejected('ipv6_not_public', denied[0]);
  return { allowed: true, family: 6, loopback: false };
}
function classifyAddress(address, policy) {
  if (ipaddr.IPv4.isValidFourPartDecimal(address)) {
    return classifyIPv4(ipaddr.IPv4.parse(address), policy);
  }
  if (ipaddr.IPv6.isValid(address)) return classifyIPv6(ipaddr.IPv6.parse(address), policy);
  return rejected('invalid_address', 'invalid');
}

// ../packages/webhook-sender/src/target/resolver.ts
import { lookup as dnsLookup } from 'node:dns/promises';

var systemResolver = async (hostname) => {
  const records = await dnsLookup(hostname, { all: true, verbatim: true });
  return records.map((record) => record.address);
};

// ../packages/webhook-sender/src/target/target-policy.ts
var refuse3 = (reason, message, extra = {}) => ({
  allowed: false,
  reason,
  message,
  stage: 'url',
  ...extra,
});
function judgeHost(url, loopbackOptIn) {
  const ipLiteral = url.hostname.startsWith('[');
  const host = ipLiteral ? url.hostname.slice(1, -1) : url.hostname;
  const isIp = ipLiteral || /^\d+\.\d+\.\d+\.\d+$/.test(host);
  if (isIp) {
    const verdict = classifyAddress(host, loopbackOptIn ? 'public_or_loopback' : 'public');
    if (!verdict.allowed) {
      const message = `address ${host} is not a public unicast address (${verdict.range})`;
      return refuse3(verdict.reason, message, { address: host, range: verdict.range });
    }
    const addressPolicy2 = verdict.loopback ? 'loopback_only' : 'public';
    return { allowed: true, url, hostKind: 'ip', host, addressPolicy: addressPolicy2 };
  }
  const name = judgeHostName(host, loopbackOptIn);
  if (!name.allowed) return refuse3(name.reason, name.message);
  const addressPolicy = name.localhost
    ? 'loopback_only'
    : loopbackOptIn
      ? 'public_or_loopback'
      : 'public';
  return { allowed: true, url, hostKind: 'name', host: name.name, addressPolicy };
}
function checkWebhookTargetStatic(target, options = {}) {
  const loopbackOptIn = options.dangerouslyAllowLoopback === true;
  let url;
  try {
    url = new URL(String(target));
  } catch {
    return refuse3('invalid_url', 'not an absolute URL the WHATWG URL parser accepts');
  }
  const http = url.protocol === 'http:' && loopbackOptIn;
  if (url.protocol !== 'https:' && !http) {
    return refuse3('scheme_not_allowed', `scheme ${url.protocol} is not allowed; use https:`);
  }
  if (url.username !== '' || url.password !== '') {
    return refuse3('userinfo_not_allowed', 'the URL must not contain a username or password');
  }
  if (url.port === '0') return refuse3('port_not_allowed', 'port 0 is not allowed');
  const verdict = judgeHost(url, loopbackOptIn);
  if (http && verdict.allowed && verdict.addressPolicy !== 'loopback_only') {
    const message = 'http: is allowed only for loopback hosts (loopback opt-in); use https:';
    return refuse3('scheme_not_allowed', message);
  }
  return verdict;
}
async function resolveAndCheck(host, policy, resolver, stage) {
  let addresses;
  try {
    addresses = await resolver(host);
  } catch (error) {
    const code = error.code;
    const why = typeof code === 'string' ? ` (${code})` : '';
    return refuse3('resolution_failed', `host "${host}" could not be resolved${why}`, { stage });
  }
  if (addresses.length === 0) {
    return refuse3('no_addresses', `host "${host}" has no A or AAAA address`, { stage });
  }
  for (const address of addresses) {
    const verdict = classifyAddress(address, policy);
    if (!verdict.allowed) {
      const message = `host "${host}" resolves to ${address}, which is not allowed (${verdict.range})`;
      return refuse3(verdict.reason, message, { stage, address, range: verdict.range });
    }
  }
  return addresses;
}
async function checkWebhookTarget(target, options = {}) {
  const verdict = checkWebhookTargetStatic(target, options);
  if (!verdict.allowed) return verdict;
  if (verdict.hostKind === 'ip') return { ...verdict, addresses: [verdict.host] };
  const resolver = options.resolver ?? systemResolver;
  const checked = await resolveAndCheck(verdict.host, verdict.addressPolicy, resolver, 'resolve');
  if ('allowed' in checked) return checked;
  return { ...verdict, addresses: checked };
}

// ../packages/webhook-sender/src/delivery/create-sender.ts
import { createSampleAlert } from '/work/wt/trace-queue/packages/webhooks/dist/node.js';

// ../packages/webhook-sender/src/alerts/serialise-alert.ts
function serialise(alert) {
  const refuse4 = (message, cause) =>
    new WebhookSenderError('invalid_alert', [{ path: '(alert)', code: 'not_an_alert', message }], {
      cause,
    });
  if (typeof alert !== 'object' || alert === null || typeof alert.id !== 'string') {
    throw refuse4('must be an alert object with a string id (see buildAlert)');
  }
  try {
    return Buffer.from(JSON.stringify(alert), 'utf8');
  } catch (error) {
    throw refuse4('cannot be serialised as JSON (circular or BigInt value)', error);
  }
}

// ../packages/webhook-sender/src/telemetry/tracing.ts
var NO_SPAN = Object.freeze({
  run: (send) => send(),
  noteState: () => {},
  end: () => {},
});
var NO_HEADERS = Object.freeze({});
var createSenderTracing = (_provider) => ({ startAttempt: () => NO_SPAN });
var traceHeaders = () => NO_HEADERS;
var isTracerProvider2 = (value) =>
  typeof value === 'object' && value !== null && typeof value.getTracer === 'function';

// ../packages/webhook-sender/package.json
var version = '0.1.0';

// ../packages/webhook-sender/src/version.ts
var VERSION = version;

// ../packages/webhook-sender/src/options.ts
var DEFAULT_SENDER_OPTIONS = Object.freeze({
  /** Total time of one delivery, ms. */
  timeoutMs: 1e4,
  /** Time to resolve and connect, ms. */
  connectTimeoutMs: 5e3,
  /** Most response bytes read. */
  maxResponseBodyBytes: 1024,
  /** `User-Agent` of deliveries. */
  userAgent: `cspwatch-webhook-sender/${VERSION}`,
  /** Loopback targets are refused. */
  dangerouslyAllowLoopback: false,
});
var KNOWN = /* @__PURE__ */ new Set([
  'store',
  'resolver',
  'timeoutMs',
  'connectTimeoutMs',
  'maxResponseBodyBytes',
  'userAgent',
  'now',
  'dangerouslyAllowLoopback',
  'tracerProvider',
]);
var STORE_METHODS = ['get', 'recordAttempt', 'disable', 'enable'];
function integerIssue(path, value, min, max) {
  if (value === void 0) return [];
  if (typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max)
    return [];
  return [{ path, code: 'out_of_range', message: `must be an integer from ${min} to ${max}` }];
}
function resolveSenderOptions(options = {}) {
  const issues = [];
  if (typeof options !== 'object' || options === null) {
    throw new WebhookSenderError('invalid_options', [
      { path: '(options)', code: 'not_an_object', message: 'options must be an object' },
    ]);
  }
  for (const key of Object.keys(options)) {
    if (!KNOWN.has(key))
      issues.push({ path: key, code: 'unknown_option', message: 'unknown option' });
  }
  issues.push(...integerIssue('timeoutMs', options.timeoutMs, 1, 6e5));
  issues.push(...integerIssue('connectTimeoutMs', options.connectTimeoutMs, 1, 6e5));
  issues.push(...integerIssue('maxResponseBodyBytes', options.maxResponseBodyBytes, 0, 1048576));
  const { userAgent, store, resolver, now, dangerouslyAllowLoopback } = options;
  if (
    userAgent !== void 0 &&
    (typeof userAgent !== 'string' || !/^[\x20-\x7e]+$/.test(userAgent))
  ) {
    issues.push({
      path: 'userAgent',
      code: 'invalid',
      message: 'must be non-empty printable ASCII',
    });
  }
  if (store !== void 0 && STORE_METHODS.some((name) => typeof store?.[name] !== 'function')) {
    issues.push({
      path: 'store',
      code: 'invalid',
      message: `must implement ${STORE_METHODS.join(', ')}`,
    });
  }
  for (const [path, value] of [
    ['resolver', resolver],
    ['now', now],
  ]) {
    if (value !== void 0 && typeof value !== 'function') {
      issues.push({ path, code: 'invalid', message: 'must be a function' });
    }
  }
  if (dangerouslyAllowLoopback !== void 0 && typeof dangerouslyAllowLoopback !== 'boolean') {
    issues.push({
      path: 'dangerouslyAllowLoopback',
      code: 'invalid',
      message: 'must be a boolean',
    });
  }
  if (options.tracerProvider !== void 0 && !isTracerProvider2(options.tracerProvider)) {
    issues.push({
      path: 'tracerProvider',
      code: 'invalid',
      message: 'must be an OpenTelemetry TracerProvider (an object with getTracer)',
    });
  }
  if (issues.length > 0) throw new WebhookSenderError('invalid_options', issues);
  const defaults = DEFAULT_SENDER_OPTIONS;
  const timeoutMs = options.timeoutMs ?? defaults.timeoutMs;
  return {
    store: store ?? createMemoryChannelStateStore(),
    resolver: resolver ?? systemResolver,
    timeoutMs,
    connectTimeoutMs: Math.min(options.connectTimeoutMs ?? defaults.connectTimeoutMs, timeoutMs),
    maxResponseBodyBytes: options.maxResponseBodyBytes ?? defaults.maxResponseBodyBytes,
    userAgent: userAgent ?? defaults.userAgent,
    now: now ?? Date.now,
    dangerouslyAllowLoopback: dangerouslyAllowLoopback ?? defaults.dangerouslyAllowLoopback,
    tracerProvider: options.tracerProvider,
  };
}

// ../packages/webhook-sender/src/delivery/agents.ts
import { Agent } from '/work/wt/trace-queue/node_modules/.pnpm/undici@7.30.2/node_modules/undici/index.js';

// ../packages/webhook-sender/src/target/guarded-lookup.ts
var ConnectTargetRejectedError = class extends Error {
  /** Marker code, so the delivery maps it to `target_rejected`. */
  code = 'ERR_CSPWATCH_TARGET_REJECTED';
  /** The refusal, with `stage: 'connect'`. */
  rejection;
  /** @param rejection - the refusal found at connect time */
  constructor(rejection) {
    super(rejection.message);
    this.name = 'ConnectTargetRejectedError';
    this.rejection = rejection;
  }
};
function createGuardedLookup(resolver, policy) {
  return (hostname, options, callback) => {
    const name = hostname.endsWith('.') ? hostname.slice(0, -1) : hostname;
    resolveAndCheck(name, policy, resolver, 'connect').then(
      (checked) => {
        if ('allowed' in checked) {
          callback(new ConnectTargetRejectedError(checked), '', 0);
          return;
        }
        const all = checked
          .map((address) => ({ address, family: address.includes(':') ? 6 : 4 }))
          .filter((entry) => !options.family || entry.family === options.family);
        const first = all[0];
        if (!first) {
          const error = new Error(`no address of family ${options.family}`);
          error.code = 'ENOTFOUND';
          callback(error, '', 0);
        } else if (options.all) callback(null, all);
        else callback(null, first.address, first.family);
      },
      (error) => callback(error, '', 0),
    );
  };
}

// ../packages/webhook-sender/src/delivery/agents.ts
function createGuardedAgents(options) {
  const agents = /* @__PURE__ */ new Map();
  return {
    forPolicy(policy) {
      let agent = agents.get(policy);
      if (!agent) {
        agent = new Agent({
          connect: {
            timeout: options.connectTimeoutMs,
            lookup: createGuardedLookup(options.resolver, policy),
          },
          headersTimeout: options.timeoutMs,
          bodyTimeout: options.timeoutMs,
        });
        agents.set(policy, agent);
      }
      return agent;
    },
    async close() {
      const open = [...agents.values()];
      agents.clear();
      await Promise.all(open.map((agent) => agent.close()));
    },
  };
}

// ../packages/webhook-sender/src/delivery/deliver.ts
import { request } from '/work/wt/trace-queue/node_modules/.pnpm/undici@7.30.2/node_modules/undici/index.js';

// ../packages/webhook-sender/src/delivery/network-error.ts
var MEANINGS = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset by the receiver',
  ENOTFOUND: 'host not found',
  EAI_AGAIN: 'host name lookup failed (temporary)',
  ETIMEDOUT: 'connection timed out',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  EPIPE: 'connection closed by the receiver while sending',
  UND_ERR_SOCKET: 'connection closed by the receiver',
  EPROTO: 'TLS handshake failed (is it an http: server?)',
  ERR_SSL_WRONG_VERSION_NUMBER: 'TLS handshake failed (is it an http: server?)',
  DEPTH_ZERO_SELF_SIGNED_CERT: 'TLS certificate is self-signed',
  SELF_SIGNED_CERT_IN_CHAIN: 'TLS certificate chain is self-signed',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'TLS certificate could not be verified',
  CERT_HAS_EXPIRED: 'TLS certificate has expired',
  ERR_TLS_CERT_ALTNAME_INVALID: 'TLS certificate does not name this host',
};
function innermostCoded(error) {
  let found;
  for (let current = error, depth = 0; current && depth < 8; depth++) {
    const fields = current;
    if (typeof fields.code === 'string') found = fields;
    current = fields.cause;
  }
  return found;
}
function whereOf(fields) {
  const { address, port, hostname } = fields;
  if (typeof address === 'string') {
    const host = address.includes(':') ? `[${address}]` : address;
    return typeof port === 'number' ? `${host}:${port}` : host;
  }
  return typeof hostname === 'string' ? hostname : '';
}
function describeNetworkError(error) {
  const coded = innermostCoded(error);
  if (coded === void 0) return error instanceof Error ? error.message : String(error);
  const code = coded.code;
  const where = whereOf(coded);
  const detail = `${code}${where ? ` ${where}` : ''}`;
  const meaning = MEANINGS[code];
  if (meaning !== void 0) return `${meaning} (${detail})`;
  const message = typeof coded.message === 'string' ? coded.message : '';
  return message && !message.includes(code) ? `${message} (${detail})` : message || detail;
}

// ../packages/webhook-sender/src/delivery/signing-variant.ts
import { signWebhookSync } from '/work/wt/trace-queue/packages/webhooks/dist/node.js';

var STALE_AGE_MS = 60 * 6e4;
function signRequest(body, secret, now, variant = 'signed') {
  if (variant === 'unsigned') return { headers: { 'content-type': 'application/json' }, body };
  const timestamp = variant === 'stale' ? now - STALE_AGE_MS : now;
  const headers = signWebhookSync({ body, secret, timestamp });
  if (variant !== 'tampered') return { headers, body };
  const tampered = new Uint8Array(body.byteLength + 1);
  tampered.set(body);
  tampered[body.byteLength] = 32;
  return { headers, body: tampered };
}

// ../packages/webhook-sender/src/delivery/deliver.ts
var TIMEOUT_CODES = /* @__PURE__ */ new Set([
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
]);
function findRejection(error) {
  for (let current = error, depth = 0; current && depth < 5; depth++) {
    if (current instanceof ConnectTargetRejectedError) return current.rejection;
    current = current.cause;
  }
  return null;
}
async function readExcerpt(body, cap) {
  const chunks = [];
  let size = 0;
  try {
    for await (const chunk of body) {
      if (size >= cap) break;
      const part = chunk.subarray(0, cap - size);
      chunks.push(part);
      size += part.length;
    }
  } catch {
    return null;
  }
  return new TextDecoder().decode(Buffer.concat(chunks));
}
function untilAborted(work, signal) {
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}
async function attemptDelivery(url, secret, body, options, agents, variant = 'signed') {
  const started = performance.now();
  const finish = (fields) => ({
    ok: false,
    status: null,
    cause: null,
    location: null,
    error: null,
    rejection: null,
    responseExcerpt: null,
    ...fields,
    durationMs: Math.round(performance.now() - started),
  });
  const signal = AbortSignal.timeout(options.timeoutMs);
  let verdict;
  try {
    verdict = await untilAborted(checkWebhookTarget(url, options), signal);
  } catch {
    return finish({
      cause: 'timeout',
      error: `resolving the target host took over the ${options.timeoutMs} ms timeout`,
    });
  }
  if (!verdict.allowed) {
    return finish({ cause: 'target_rejected', error: verdict.message, rejection: verdict });
  }
  const signed = signRequest(body, secret, options.now(), variant);
  try {
    const response = await request(verdict.url, {
      method: 'POST',
      headers: { ...signed.headers, 'user-agent': options.userAgent, ...traceHeaders() },
      body: signed.body,
      signal,
      dispatcher: agents.forPolicy(verdict.addressPolicy),
    });
    const status = response.statusCode;
    const location = response.headers.location;
    const responseExcerpt = await readExcerpt(response.body, options.maxResponseBodyBytes);
    if (status >= 200 && status < 300) return finish({ ok: true, status, responseExcerpt });
    if (status >= 300 && status < 400) {
      const where = Array.isArray(location) ? (location[0] ?? null) : (location ?? null);
      return finish({ status, cause: 'redirect', location: where, responseExcerpt });
    }
    return finish({ status, cause: 'http_status', responseExcerpt });
  } catch (error) {
    const rejection = findRejection(error);
    if (rejection) return finish({ cause: 'target_rejected', error: rejection.message, rejection });
    const code = error.code;
    if (signal.aborted || (typeof code === 'string' && TIMEOUT_CODES.has(code))) {
      const why = typeof code === 'string' ? ` (${code})` : '';
      return finish({
        cause: 'timeout',
        error: `no complete answer within the ${options.timeoutMs} ms timeout${why}`,
      });
    }
    return finish({ cause: 'network', error: describeNetworkError(error) });
  }
}

// ../packages/webhook-sender/src/delivery/delivery-channel.ts
import {
  MIN_SECRET_LENGTH,
  secretProblem,
} from '/work/wt/trace-queue/packages/webhooks/dist/node.js';

function checkChannel(channel) {
  const bad = (path, message) =>
    new WebhookSenderError('invalid_channel', [{ path, code: 'invalid', message }]);
  if (typeof channel !== 'object' || channel === null) throw bad('(channel)', 'must be an object');
  if (typeof channel.id !== 'string' || channel.id === '')
    throw bad('id', 'must be a non-empty string');
  if (typeof channel.url !== 'string') throw bad('url', 'must be a string');
  if (secretProblem(channel.secret) !== void 0) {
    throw bad('secret', `must be a string of at least ${MIN_SECRET_LENGTH} characters`);
  }
}

// ../packages/webhook-sender/src/delivery/delivery-result.ts
var shown = (text) => (text === null ? null : redactUrls(text));
function toDeliveryResult(channelId, alertId, outcome, state) {
  const { ok, status, durationMs, cause, location, error, rejection, responseExcerpt } = outcome;
  return {
    ok,
    channelId,
    alertId,
    status,
    durationMs,
    cause,
    location: shown(location),
    error: shown(error),
    rejection,
    responseExcerpt: shown(responseExcerpt),
    consecutiveFailures: state.consecutiveFailures,
    disabled: state.disabled,
    disabledNow: state.disabledNow,
    test: state.test,
  };
}
var SKIPPED_DISABLED = Object.freeze({
  ok: false,
  status: null,
  durationMs: 0,
  cause: 'channel_disabled',
  location: null,
  error: 'the channel is disabled; re-enable it to deliver',
  rejection: null,
  responseExcerpt: null,
});

// ../packages/webhook-sender/src/delivery/create-sender.ts
function createWebhookSender(options = {}) {
  const resolved = resolveSenderOptions(options);
  const { store } = resolved;
  const agents = createGuardedAgents(resolved);
  const tracing = createSenderTracing(resolved.tracerProvider);
  const send = (channel, body) =>
    attemptDelivery(channel.url, channel.secret, body, resolved, agents);
  return {
    async deliver(channel, alert) {
      checkChannel(channel);
      const body = serialise(alert);
      const before = await store.get(channel.id);
      if (before.disabled) {
        const state = { ...before, disabledNow: false, test: false };
        return toDeliveryResult(channel.id, null, SKIPPED_DISABLED, state);
      }
      const span = tracing.startAttempt(channel, alert.id, false);
      try {
        const outcome = await span.run(() => send(channel, body));
        if (outcome.rejection?.stage === 'url') {
          const state = { ...before, disabledNow: false, test: false };
          return toDeliveryResult(channel.id, alert.id, outcome, state);
        }
        const after = await store.recordAttempt(channel.id, {
          ok: outcome.ok,
          failuresToDisable: FAILURES_BEFORE_DISABLE,
        });
        span.noteState(after);
        return toDeliveryResult(channel.id, alert.id, outcome, { ...after, test: false });
      } finally {
        span.end();
      }
    },
    async sendTest(channel) {
      checkChannel(channel);
      const alert = createSampleAlert();
      const span = tracing.startAttempt(channel, alert.id, true);
      const outcome = await span.run(() => send(channel, serialise(alert))).finally(span.end);
      const state = await store.get(channel.id);
      return toDeliveryResult(channel.id, alert.id, outcome, {
        ...state,
        disabledNow: false,
        test: true,
      });
    },
    checkTarget: (url) => checkWebhookTarget(url, resolved),
    getState: (channelId) => store.get(channelId),
    enable: (channelId) => store.enable(channelId),
    close: () => agents.close(),
  };
}

// ../packages/redis/src/queue/delivery-worker.ts
// ../packages/redis/src/queue/in-flight.ts
import {
  DelayedError,
  Job,
  Worker,
} from '/work/wt/trace-queue/node_modules/.pnpm/bullmq@6.7.0_ioredis@5.11.1/node_modules/bullmq/dist/cjs/index.js';

var PROMOTE_TRIES = 3;
function createInFlightSlots(options) {
  const { redis, queues, keys, cap, leaseMs } = options;
  const keyLifetime = String(leaseMs * 2);
  async function promote(jobId, channelId) {
    try {
      const job = await Job.fromId(queues.forChannel(channelId), jobId);
      await job?.promote();
      return job !== void 0;
    } catch {
      return false;
    }
  }
  async function promoteWaiting(jobId, channelId) {
    let next = jobId;
    for (let tries = 0; next !== null && tries < PROMOTE_TRIES; tries++) {
      if (await promote(next, channelId)) return;
      const popped = await redis.cspwatchNextWaiting(keys.waitingRoom(channelId));
      next = popped[0] ?? null;
    }
  }
  return {
    async acquire(jobId, channelId) {
      const now = Date.now();
      const reply = await redis.cspwatchAcquireSlot(
        keys.inFlight(channelId),
        jobId,
        String(now),
        String(now + leaseMs),
        String(cap),
        keyLifetime,
      );
      return reply === 1;
    },
    async waitForSlot(job, token, channelId) {
      await job.moveToDelayed(Date.now() + leaseMs, token);
      const freed = await redis.cspwatchWaitForSlot(
        keys.inFlight(channelId),
        keys.waitingRoom(channelId),
        job.id ?? '',
        String(Date.now()),
        String(cap),
        keyLifetime,
      );
      if (freed === 1) await promote(job.id ?? '', channelId);
      throw new DelayedError();
    },
    async release(jobId, channelId) {
      const popped = await redis.cspwatchReleaseSlot(
        keys.inFlight(channelId),
        keys.waitingRoom(channelId),
        jobId,
      );
      await promoteWaiting(popped[0] ?? null, channelId);
    },
    promoteWaiting,
  };
}

// ../packages/redis/src/queue/process-job.ts
import { DelayedError as DelayedError2 } from '/work/wt/trace-queue/node_modules/.pnpm/bullmq@6.7.0_ioredis@5.11.1/node_modules/bullmq/dist/cjs/index.js';

var AttemptFailedError = class extends Error {
  name = 'AttemptFailedError';
};
var MAX_ERROR_TEXT = 300;
function describeError(error) {
  const text = error instanceof Error ? error.message : String(error);
  return text.length > MAX_ERROR_TEXT ? `${text.slice(0, MAX_ERROR_TEXT)}\u2026` : text;
}
function createJobProcessor(context) {
  const { redis, queues, keys, retention, sender, store, channels, slots, report, closing } =
    context;
  const record = (entry) => appendHistory(redis, keys, entry, retention);
  const { observer } = context;
  const notify = observer
    ? (event) => {
        try {
          observer(event);
        } catch (error) {
          report(error);
        }
      }
    : void 0;
  let lastSuccessAt = null;
  function observeAttempt(job, entry) {
    const { channelId, durationMs } = entry;
    noteAttemptOutcome(entry.ok, entry.cause);
    if (entry.ok) {
      lastSuccessAt = Date.now();
      notify?.({
        outcome: 'delivered',
        channelId,
        durationMs,
        lagMs: lastSuccessAt - job.timestamp,
      });
      return;
    }
    const cause = entry.cause ?? 'network';
    notify?.({ outcome: 'failed', channelId, cause, durationMs, disabledNow: entry.disabledNow });
  }
  async function park(job, attempts, reason, onlyWhileDisabled) {
    const { channelId, alert, traceContext } = job.data;
    const parkedAt = Date.now();
    const entryId = job.id ?? `${parkedAt}`;
    const traced = traceContext ? { traceContext } : {};
    const parked = { entryId, channelId, alert, attempts, reason, parkedAt, ...traced };
    if (!(await parkAlert(redis, keys, parked, onlyWhileDisabled))) return false;
    const at = new Date(parkedAt).toISOString();
    await record({ kind: 'parked', alertId: alert.id, channelId, attempt: attempts, at, reason });
    notify?.({ outcome: 'parked', channelId, reason });
    return true;
  }
  async function parkWhileDisabled(job, attempts) {
    if (await park(job, attempts, 'channel_disabled', true)) return;
    await queues.add(job.data.channelId, [deliveryJob({ ...job.data, priorAttempts: attempts })]);
  }
  async function attemptOnce(channel, job) {
    let result;
    try {
      result = await sender.deliver(channel, job.data.alert);
    } catch (error) {
      if (!isWebhookSenderError(error) || error.code !== 'invalid_channel') throw error;
      const what = error.issues.map((issue) => `${issue.path} ${issue.message}`).join('; ');
      return { kind: 'problem', cause: 'invalid_channel', error: `channel ${what}` };
    }
    if (result.cause === 'channel_disabled') return { kind: 'skipped' };
    if (result.rejection?.stage === 'url') {
      return {
        kind: 'problem',
        cause: 'invalid_channel',
        error: `channel url ${result.error}`,
      };
    }
    return { kind: 'sent', result };
  }
  async function attemptEntry(job, attempt, startedAt, outcome, secret) {
    const { channelId, alert } = job.data;
    const common = { kind: 'attempt', alertId: alert.id, channelId, attempt };
    const at = new Date(startedAt).toISOString();
    if (outcome.kind === 'problem') {
      const { consecutiveFailures } = await store.get(channelId);
      return {
        ...common,
        at,
        durationMs: Date.now() - startedAt,
        ok: false,
        status: null,
        cause: outcome.cause,
        location: null,
        error: outcome.error,
        responseExcerpt: null,
        consecutiveFailures,
        disabledNow: false,
      };
    }
    const { result } = outcome;
    return {
      ...common,
      at,
      durationMs: result.durationMs,
      ok: result.ok,
      status: result.status,
      cause: result.cause,
      location: redactSecret(result.location, secret),
      error: redactSecret(result.error, secret),
      responseExcerpt: redactSecret(result.responseExcerpt, secret),
      consecutiveFailures: result.consecutiveFailures,
      disabledNow: result.disabledNow,
    };
  }
  async function settle(job, attempt, outcome) {
    if (outcome.kind === 'sent' && outcome.result.ok) return;
    const last = job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
    if (outcome.kind === 'problem') {
      report(
        new CspwatchRedisError(
          'channel_unusable',
          `channel ${job.data.channelId} (${outcome.cause}): ${outcome.error}; fix it, then releaseParked(channelId)`,
        ),
      );
      if (last) {
        await park(job, attempt, outcome.cause, false);
        return;
      }
      throw new AttemptFailedError(`attempt ${attempt}: ${outcome.cause}`);
    }
    if (outcome.kind === 'skipped' || outcome.result.disabled) {
      return parkWhileDisabled(job, outcome.kind === 'skipped' ? attempt - 1 : attempt);
    }
    if (last) {
      await park(job, attempt, 'retries_exhausted', false);
      return;
    }
    const { cause, status } = outcome.result;
    throw new AttemptFailedError(
      `attempt ${attempt} failed: ${cause}${status ? ` ${status}` : ''}`,
    );
  }
  async function process(job, token) {
    if (job.name !== DELIVER_JOB) return;
    if (closing()) {
      await job.moveToDelayed(Date.now(), token);
      throw new DelayedError2();
    }
    const { channelId, alert } = job.data;
    const attempt = job.data.priorAttempts + job.attemptsMade + 1;
    const startedAt = Date.now();
    let channel;
    try {
      channel = await channels(channelId);
    } catch (error) {
      const problem = {
        kind: 'problem',
        cause: 'channel_lookup_failed',
        error: `the channels lookup threw: ${describeError(error)}`,
      };
      const entry = await attemptEntry(job, attempt, startedAt, problem, '');
      await record(entry);
      observeAttempt(job, entry);
      return settle(job, attempt, problem);
    }
    if (!channel) {
      const at = /* @__PURE__ */ new Date().toISOString();
      const entry = {
        kind: 'discarded',
        alertId: alert.id,
        channelId,
        attempt: attempt - 1,
      };
      await record({ ...entry, at, reason: null });
      notify?.({ outcome: 'discarded', channelId });
      return;
    }
    const jobId = job.id ?? '';
    if (!(await slots.acquire(jobId, channelId))) return slots.waitForSlot(job, token, channelId);
    let outcome;
    try {
      outcome = await attemptOnce(channel, job);
    } catch (error) {
      await slots.release(jobId, channelId).catch(report);
      throw error;
    }
    if (outcome.kind === 'skipped') {
      await slots.release(jobId, channelId);
    } else {
      const entry = await attemptEntry(job, attempt, startedAt, outcome, channel.secret);
      const next = await finishAttempt(redis, keys, entry, retention, jobId);
      observeAttempt(job, entry);
      await slots.promoteWaiting(next, channelId);
    }
    return settle(job, attempt, outcome);
  }
  async function parkFailedJob(job) {
    await park(job, job.data.priorAttempts + job.attemptsMade, 'worker_error', false);
    await job.remove().catch(() => {});
  }
  return { process, parkFailedJob, lastSuccessAt: () => lastSuccessAt };
}

// ../packages/redis/src/queue/worker-options.ts
var WORKER_KEYS = [
  'channels',
  'concurrency',
  'sender',
  'lockDurationMs',
  'stalledIntervalMs',
  'maxStalledCount',
  'parkedExpiryIntervalMs',
  'maxInFlightPerChannel',
  'closeTimeoutMs',
  'onError',
  'observer',
];
function resolveWorkerOptions(what, options) {
  checkOptionsObject(what, options);
  const issues = [];
  const resolved = resolveBaseOptions(options, WORKER_KEYS, issues);
  if (typeof options.channels !== 'function') {
    issues.push({
      path: 'channels',
      message: 'is required: a function (channelId) => { id, url, secret }',
    });
  }
  checkInteger(issues, 'concurrency', options.concurrency, 1, 1e4);
  checkInteger(issues, 'lockDurationMs', options.lockDurationMs, 100, 36e5);
  checkInteger(issues, 'stalledIntervalMs', options.stalledIntervalMs, 100, 36e5);
  checkInteger(issues, 'maxStalledCount', options.maxStalledCount, 1, 1e3);
  checkInteger(issues, 'parkedExpiryIntervalMs', options.parkedExpiryIntervalMs, 100, 864e5);
  checkInteger(issues, 'maxInFlightPerChannel', options.maxInFlightPerChannel, 1, 1e3);
  checkInteger(issues, 'closeTimeoutMs', options.closeTimeoutMs, 0, 36e5);
  if (
    options.sender !== void 0 &&
    (typeof options.sender !== 'object' || options.sender === null)
  ) {
    issues.push({ path: 'sender', message: 'must be an object of webhook sender options' });
  } else if (options.sender && 'store' in options.sender) {
    issues.push({
      path: 'sender.store',
      message:
        "is the worker's (the Redis channel state store on the queue's keys, which parking reads too); remove it",
    });
  }
  if (options.onError !== void 0 && typeof options.onError !== 'function') {
    issues.push({ path: 'onError', message: 'must be a function (error) => void' });
  }
  if (options.observer !== void 0 && typeof options.observer !== 'function') {
    issues.push({
      path: 'observer',
      message:
        'must be a function (event) => void, e.g. queueMetrics({ registry, queue }).observer',
    });
  }
  throwIfIssues(what, issues);
  const report = (error) => {
    try {
      options.onError?.(error instanceof Error ? error : new Error(String(error)));
    } catch {}
  };
  const base = resolved;
  return { base, report, defaults: DELIVERY_QUEUE_DEFAULTS };
}

// ../packages/redis/src/queue/delivery-worker.ts
function createDeliveryWorker(options) {
  const what = 'createDeliveryWorker';
  const { base, report, defaults } = resolveWorkerOptions(what, options);
  const keys = queueKeys(base.prefix, base.queueName);
  const retention = { maxEntries: base.historyMaxEntries, maxAgeMs: base.historyMaxAgeMs };
  const redis = connectWorker(base.connection, report);
  const state = connectWorker(base.connection, report, { enableAutoPipelining: true });
  const store = createRedisChannelStateStore({ redis: state, prefix: keys.channelStatePrefix });
  const tracerProvider = base.tracerProvider ? { tracerProvider: base.tracerProvider } : {};
  const sender = createWebhookSender({ ...tracerProvider, ...options.sender, store });
  const tracing = createQueueTracing(base.queueName, base.tracerProvider);
  const lockDurationMs = options.lockDurationMs ?? defaults.lockDurationMs;
  const queues = openShardQueues(redis, base.prefix, base.queueName, base.shards, report);
  const closeTimeoutMs = options.closeTimeoutMs ?? defaults.closeTimeoutMs;
  let closing;
  const slots = createInFlightSlots({
    redis: state,
    queues,
    keys,
    cap: options.maxInFlightPerChannel ?? defaults.maxInFlightPerChannel,
    // An attempt ends within the sender's timeout; past its lock too, BullMQ has given the job
    // to another worker, so a slot held that long belongs to a dead one.
    leaseMs: (options.sender?.timeoutMs ?? DEFAULT_SENDER_OPTIONS.timeoutMs) + lockDurationMs,
  });
  const processor = createJobProcessor({
    redis: state,
    queues,
    keys,
    retention,
    sender,
    store,
    channels: options.channels,
    slots,
    report,
    closing: () => closing !== void 0,
    observer: options.observer,
  });
  let inFlight = 0;
  const processJob = async (job, token) => {
    inFlight++;
    try {
      return await tracing.process(job, () => processor.process(job, token));
    } finally {
      inFlight--;
    }
  };
  const concurrency = options.concurrency ?? defaults.concurrency;
  const workers = queues.all.map(
    (queue) =>
      new Worker(base.queueName, processJob, {
        connection: redis,
        prefix: queue.opts.prefix ?? base.prefix,
        concurrency: Math.max(1, Math.ceil(concurrency / base.shards)),
        lockDuration: lockDurationMs,
        stalledInterval: options.stalledIntervalMs ?? defaults.stalledIntervalMs,
        // A job whose workers die under it more often than this is failed by BullMQ, then parked.
        maxStalledCount: options.maxStalledCount ?? defaults.maxStalledCount,
        settings: {
          // Retry `attemptsMade` (1 = the second attempt) waits the schedule's delay at that index.
          backoffStrategy: (attemptsMade, _t, _e, job) => {
            const schedule = job?.data?.schedule;
            return schedule ? delayBeforeAttempt(schedule, attemptsMade) : 0;
          },
        },
      }),
  );
  for (const worker of workers) {
    worker.on('error', report);
    worker.on('failed', (job) => {
      if (job?.name === DELIVER_JOB && job.finishedOn) processor.parkFailedJob(job).catch(report);
    });
  }
  const housekeeping = setInterval(() => {
    expireParkedAlerts(state, keys, base.parkedTtlMs, retention).catch(report);
    for (const queue of queues.all) parkFailedJobs(queue, processor.parkFailedJob).catch(report);
  }, options.parkedExpiryIntervalMs ?? defaults.parkedExpiryIntervalMs);
  housekeeping.unref();
  return {
    waitUntilReady: async () => {
      await Promise.all(workers.map((worker) => worker.waitUntilReady()));
    },
    health() {
      const connected = { jobs: redis.status === 'ready', state: state.status === 'ready' };
      const running = workers.filter((worker) => worker.isRunning()).length;
      const shards = { total: workers.length, running };
      const lastSuccess = processor.lastSuccessAt();
      return {
        ok: connected.jobs && connected.state && running === workers.length && !closing,
        closing: closing !== void 0,
        connected,
        lastSuccessAt: lastSuccess === null ? null : new Date(lastSuccess).toISOString(),
        inFlight,
        shards,
      };
    },
    close() {
      closing ??= (async () => {
        clearInterval(housekeeping);
        await Promise.all(workers.map((worker) => closeWithin(worker, closeTimeoutMs)));
        await queues.close();
        await sender.close();
        state.disconnect();
        redis.disconnect();
      })();
      return closing;
    },
  };
}
async function parkFailedJobs(queue, parkFailedJob) {
  const failed = await queue.getFailed(0, 99);
  for (const job of failed) {
    if (job?.name === DELIVER_JOB) await parkFailedJob(job);
  }
}
async function closeWithin(worker, timeoutMs) {
  let timer;
  const timedOut = new Promise((resolve) => {
    timer = setTimeout(() => resolve('timeout'), timeoutMs);
  });
  const closed2 = worker.close();
  const first = await Promise.race([closed2.then(() => 'closed'), timedOut]);
  clearTimeout(timer);
  if (first === 'timeout') await worker.close(true);
  await closed2.catch(() => {});
}

// ../packages/redis/src/queue/shard-locations.ts
function deliveryQueueShards(options) {
  const what = 'deliveryQueueShards';
  checkOptionsObject(what, options);
  const issues = [];
  checkName(issues, 'queueName', options.queueName);
  checkName(issues, 'prefix', options.prefix);
  checkInteger(issues, 'shards', options.shards, 1, 256);
  throwIfIssues(what, issues);
  const {
    queueName = DELIVERY_QUEUE_DEFAULTS.queueName,
    prefix = DELIVERY_QUEUE_DEFAULTS.prefix,
    shards = DELIVERY_QUEUE_DEFAULTS.shards,
  } = options;
  return Array.from({ length: shards }, (_, shard) => ({
    shard,
    name: queueName,
    prefix: shardPrefix(prefix, shard, shards),
  }));
}

export {
  CspwatchRedisError,
  createDeliveryQueue,
  createDeliveryWorker,
  DELIVERY_QUEUE_DEFAULTS,
  deliveryQueueShards,
  isCspwatchRedisError,
};
