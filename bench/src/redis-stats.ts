/**
 * What Redis did for the bench: commands executed (INFO commandstats, script-internal ones
 * included) and CPU time (INFO cpu) between two snapshots, of one node or node by node, and
 * client round trips and commands by part of the work (MONITOR).
 */
import { Redis } from 'ioredis';

/** Counters of redis-server at one moment. */
export interface RedisSnapshot {
  /** Calls per command name (`evalsha`, `hset`, …). */
  readonly calls: ReadonlyMap<string, number>;
  /** used_cpu_user + used_cpu_sys, seconds. */
  readonly cpuSeconds: number;
}

/** One node's counters at one moment. */
export interface NodeSnapshot {
  /** `host:port` */
  readonly node: string;
  readonly role: 'master' | 'replica';
  readonly snapshot: RedisSnapshot;
}

/** What Redis did between two snapshots. */
export interface RedisCost {
  /** Calls per command name. */
  readonly calls: ReadonlyMap<string, number>;
  /** Sum of {@link RedisCost.calls}. */
  readonly commands: number;
  /** CPU seconds of redis-server. */
  readonly cpuSeconds: number;
}

/** No cost: the start of a sum. */
export const NO_COST: RedisCost = { calls: new Map(), commands: 0, cpuSeconds: 0 };

/**
 * Reads commandstats and cpu in one INFO call. INFO itself is left out of the counts (the
 * bench's own snapshots call it; BullMQ calls it only when it connects).
 */
export async function snapshotRedis(redis: Redis): Promise<RedisSnapshot> {
  const info = String(await redis.call('INFO', 'commandstats', 'cpu'));
  const calls = new Map<string, number>();
  for (const match of info.matchAll(/^cmdstat_([^:]+):calls=(\d+)/gm)) {
    if (match[1] !== 'info') calls.set(match[1]!, Number(match[2]));
  }
  const read = (name: string) => Number(new RegExp(`^${name}:([\\d.]+)`, 'm').exec(info)?.[1]);
  const cpuSeconds = read('used_cpu_user') + read('used_cpu_sys');
  if (!Number.isFinite(cpuSeconds)) throw new Error('INFO cpu: no used_cpu_user/used_cpu_sys');
  return { calls, cpuSeconds };
}

/**
 * The cost between `before` and `after`, less `own` calls the bench made itself in between
 * (its polls), by command name.
 */
export function costBetween(
  before: RedisSnapshot,
  after: RedisSnapshot,
  own: Readonly<Record<string, number>> = {},
): RedisCost {
  const calls = new Map<string, number>();
  for (const [name, count] of after.calls) {
    const delta = count - (before.calls.get(name) ?? 0) - (own[name] ?? 0);
    if (delta > 0) calls.set(name, delta);
  }
  const commands = [...calls.values()].reduce((sum, count) => sum + count, 0);
  return {
    calls,
    commands,
    cpuSeconds: after.cpuSeconds - before.cpuSeconds,
  };
}

/** The sum of two costs. */
export function addCosts(a: RedisCost, b: RedisCost): RedisCost {
  const calls = new Map(a.calls);
  for (const [name, count] of b.calls) calls.set(name, (calls.get(name) ?? 0) + count);
  return {
    calls,
    commands: a.commands + b.commands,
    cpuSeconds: a.cpuSeconds + b.cpuSeconds,
  };
}

/** What one node did, with its role. */
export interface NodeCost {
  readonly node: string;
  readonly role: 'master' | 'replica';
  readonly cost: RedisCost;
}

/**
 * What each node did between two snapshots of the same nodes, less `own` calls the bench made
 * on a node in between (by node, then by command name).
 */
export function nodeCostsBetween(
  before: readonly NodeSnapshot[],
  after: readonly NodeSnapshot[],
  own: ReadonlyMap<string, Readonly<Record<string, number>>> = new Map(),
): NodeCost[] {
  return after.map(({ node, role, snapshot }) => {
    const start = before.find((entry) => entry.node === node);
    if (!start) throw new Error(`redis section: no earlier snapshot of ${node}`);
    return { node, role, cost: costBetween(start.snapshot, snapshot, own.get(node)) };
  });
}

/** The sum of the costs of the nodes of `role`. */
export function costOfRole(costs: readonly NodeCost[], role: NodeCost['role']): RedisCost {
  return costs
    .filter((entry) => entry.role === role)
    .reduce((sum, entry) => addCosts(sum, entry.cost), NO_COST);
}

/** Commands of one part of the work (see {@link watchCommands}). */
export interface PartCommands {
  /** Every command, script-internal ones included (as `INFO commandstats` counts them). */
  commands: number;
  /** Client commands: round trips, a MULTI…EXEC block counted once. */
  roundTrips: number;
}

/** What MONITOR saw while the work ran, by part. */
export interface WatchedCommands {
  /** Client commands, a MULTI…EXEC block counted once. */
  readonly roundTrips: number;
  /** By the part `partOf` named. */
  readonly parts: ReadonlyMap<string, PartCommands>;
}

/** The first key of a command as MONITOR shows it (`EVALSHA sha numkeys key…`: the first key). */
function firstKey(args: readonly string[]): string {
  const command = args[0]?.toLowerCase();
  if (command === 'evalsha' || command === 'eval') return args[3] ?? '';
  return args[1] ?? '';
}

/**
 * Commands run while `work` runs, via MONITOR: client round trips (a MULTI…EXEC block counted
 * once), and every command (script-internal ones included) by the part `partOf` names from
 * the command's first key (a script's own call by its first key, each of its commands by its own).
 */
export async function watchCommands(
  url: string,
  work: () => Promise<void>,
  partOf: (key: string) => string,
): Promise<WatchedCommands> {
  const client = new Redis(url);
  const monitor = await client.monitor();
  const inMulti = new Set<string>();
  const parts = new Map<string, PartCommands>();
  let roundTrips = 0;
  monitor.on('monitor', (_time: string, args: string[], source: string) => {
    const name = partOf(firstKey(args));
    const part = parts.get(name) ?? { commands: 0, roundTrips: 0 };
    parts.set(name, part);
    part.commands += 1;
    if (source === 'lua') return;
    const command = args[0]?.toLowerCase();
    if (command === 'multi') inMulti.add(source);
    else if (command === 'exec') inMulti.delete(source);
    if (!inMulti.has(source) || command === 'multi') {
      roundTrips += 1;
      part.roundTrips += 1;
    }
  });
  try {
    await work();
  } finally {
    monitor.disconnect();
    client.disconnect();
  }
  return { roundTrips, parts };
}
