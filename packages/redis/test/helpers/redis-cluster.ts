/**
 * Starts a private Redis Cluster (by default 3 masters with 1 replica each, six real
 * `redis-server` processes on loopback, each in its own temp dir) for tests that must see what a
 * production cluster does: slot routing, MOVED redirections and a replica taking over when its
 * master is SIGKILLed. Every wait is bounded by a deadline and every process is killed on
 * teardown, also when startup fails half-way.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { budget } from '../../../../test-budget';

/** One node of the cluster as it is now. */
export interface ClusterNodeInfo {
  /** Client port; the cluster bus listens on `port + 10000`. */
  readonly port: number;
  /** The node's cluster id (40 hex chars). */
  readonly id: string;
  /** `master` or `replica`, as the node itself says (or, while it is down, as the others say). */
  readonly role: 'master' | 'replica';
  /** The process id, or `null` while the node is killed. */
  readonly pid: number | null;
  /** `false` between `killMaster` and `restartNode`. */
  readonly alive: boolean;
  /** For a replica, the port of the master it replicates; `null` for a master. */
  readonly masterPort: number | null;
  /** Inclusive slot ranges `[first, last]` a master serves; empty for replicas. */
  readonly slots: [number, number][];
}

/** A running private Redis Cluster. */
export interface RedisClusterHandle {
  /** Seed nodes for ioredis `new Cluster(startupNodes)`: [{ host: '127.0.0.1', port }], masters first. */
  readonly startupNodes: { host: string; port: number }[];
  /** Every node: port, role now ('master' | 'replica'), pid, and the slot ranges it serves (masters). */
  nodes(): Promise<ClusterNodeInfo[]>;
  /**
   * SIGKILLs one master (by port, or the one serving `slot`), waits until its replica is promoted
   * and `cluster_state:ok` is back on every live node; resolves with
   * `{ killedPort, promotedPort, failoverMs }`, `failoverMs` being the time from the kill to the
   * promoted node answering `ROLE` master with `cluster_state:ok`.
   */
  killMaster(
    which: { port: number } | { slot: number },
  ): Promise<{ killedPort: number; promotedPort: number; failoverMs: number }>;
  /** Restarts a killed node (it rejoins as a replica of its promoted former replica); waits until the cluster sees it connected. */
  restartNode(port: number): Promise<void>;
  /** Stops every node (SIGKILL) and removes the temp dirs. */
  stop(): Promise<void>;
}

/** Options of {@link startRedisCluster}. */
export interface RedisClusterOptions {
  /** Number of masters (at least 3, as `redis-cli --cluster create` requires); default 3. */
  masters?: number;
  /** Replicas per master; default 1. */
  replicasPerMaster?: number;
  /** `cluster-node-timeout` in ms (how long until a silent node is failed over); default 1000. */
  nodeTimeoutMs?: number;
  /** AOF on (`appendonly yes`, fsync every second); default true. */
  appendonly?: boolean;
  /** Deadline of every wait, in ms; default 30 000. */
  timeoutMs?: number;
}

const HOST = '127.0.0.1';
const BUS_OFFSET = 10_000;
const TOTAL_SLOTS = 16_384;

interface NodeProcess {
  readonly port: number;
  readonly dir: string;
  child: ChildProcess | null;
}

/** A parsed line of `CLUSTER NODES`. */
interface NodesLine {
  id: string;
  port: number;
  flags: string[];
  masterId: string | null;
  connected: boolean;
  slots: [number, number][];
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The first port of the kernel's ephemeral range: ports below it are not handed out to clients. */
function ephemeralStart(): number {
  try {
    const [low] = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8')
      .trim()
      .split(/\s+/);
    const value = Number(low);
    return Number.isInteger(value) && value > 2 * BUS_OFFSET ? value : 32_768;
  } catch {
    return 32_768;
  }
}

async function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.unref();
    server.once('error', () => resolve(false));
    server.listen({ port, host: HOST, exclusive: true }, () => server.close(() => resolve(true)));
  });
}

/**
 * A port whose cluster bus port (`port + 10000`) is free too. Both are picked below the
 * ephemeral range, so that no outgoing connection can grab them between this check and the
 * moment `redis-server` binds them.
 */
async function freeClusterPort(taken: Set<number>): Promise<number> {
  const high = ephemeralStart() - BUS_OFFSET - 1;
  const low = 10_000;
  for (let attempt = 0; attempt < 500; attempt++) {
    const port = low + Math.floor(Math.random() * (high - low));
    if (taken.has(port) || taken.has(port + BUS_OFFSET) || taken.has(port - BUS_OFFSET)) continue;
    if ((await canListen(port)) && (await canListen(port + BUS_OFFSET))) {
      taken.add(port);
      return port;
    }
  }
  throw new Error(`no free port pair (port, port + ${BUS_OFFSET}) between ${low} and ${high}`);
}

/** Sends one command to one node on a fresh connection; throws if the node does not answer. */
async function command(port: number, ...args: (string | number)[]): Promise<unknown> {
  const client = new Redis({
    host: HOST,
    port,
    lazyConnect: true,
    connectTimeout: 1000,
    commandTimeout: 1000,
    maxRetriesPerRequest: 0,
    enableOfflineQueue: false,
    retryStrategy: () => null,
  });
  client.on('error', () => {});
  try {
    await client.connect();
    const [name, ...rest] = args;
    return await client.call(String(name), ...rest);
  } finally {
    client.disconnect();
  }
}

/** Like {@link command} for a text reply, `null` if the node is down or fails. */
async function text(port: number, ...args: (string | number)[]): Promise<string | null> {
  try {
    const reply = await command(port, ...args);
    return typeof reply === 'string' ? reply : String(reply);
  } catch {
    return null;
  }
}

/** `field:value` lines of an INFO or CLUSTER INFO reply. */
function infoField(reply: string | null, field: string): string | undefined {
  const match = reply?.match(new RegExp(`^${field}:(.*)$`, 'm'));
  return match?.[1]?.trim();
}

function parseNodes(reply: string): NodesLine[] {
  return reply
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean)
    .map((line) => {
      const [id = '', address = '', flags = '', master = '-', , , , link = '', ...slotFields] =
        line.split(' ');
      const slots: [number, number][] = [];
      for (const field of slotFields) {
        if (field.startsWith('[')) continue; // a slot being migrated or imported
        const [first, last = first] = field.split('-');
        slots.push([Number(first), Number(last)]);
      }
      return {
        id,
        port: Number(address.split('@')[0]?.split(':').pop()),
        flags: flags.split(','),
        masterId: master === '-' ? null : master,
        connected: link === 'connected',
        slots,
      };
    });
}

async function clusterNodes(port: number): Promise<NodesLine[] | null> {
  const reply = await text(port, 'CLUSTER', 'NODES');
  return reply === null ? null : parseNodes(reply);
}

/**
 * Polls `check` (which returns `true` when ready, or a description of what is not ready yet)
 * until it is ready or `timeoutMs` passes; then throws with the last description.
 */
async function waitUntil(
  what: string,
  check: () => Promise<true | string>,
  timeoutMs: number,
): Promise<void> {
  const deadline = Date.now() + budget(timeoutMs);
  for (;;) {
    const result = await check();
    if (result === true) return;
    if (Date.now() > deadline) {
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}; not ready: ${result}`);
    }
    await sleep(25);
  }
}

/** Runs `redis-cli` (from PATH, or `REDIS_CLI_BIN`) and resolves with its output. */
async function redisCli(args: string[], timeoutMs: number): Promise<string> {
  const binary = process.env.REDIS_CLI_BIN ?? 'redis-cli';
  return new Promise((resolve, reject) => {
    execFile(binary, args, { timeout: timeoutMs }, (error, stdout, stderr) => {
      if (error) {
        reject(
          new Error(`${binary} ${args.join(' ')} failed: ${error.message}\n${stdout}${stderr}`),
        );
      } else {
        resolve(stdout);
      }
    });
  });
}

/**
 * Starts a Redis Cluster of `masters * (1 + replicasPerMaster)` `redis-server` processes
 * (from PATH, or `REDIS_SERVER_BIN`) on 127.0.0.1, creates it with `redis-cli --cluster create`
 * and resolves once every node says `cluster_state:ok` with all 16384 slots assigned and every
 * replica's link to its master is up. Replicas are always eligible for failover
 * (`cluster-replica-validity-factor 0`), so `killMaster` takes about `nodeTimeoutMs` plus the
 * election delay (0.5–1 s).
 */
export async function startRedisCluster(
  options: RedisClusterOptions = {},
): Promise<RedisClusterHandle> {
  const masters = options.masters ?? 3;
  const replicasPerMaster = options.replicasPerMaster ?? 1;
  const nodeTimeoutMs = options.nodeTimeoutMs ?? 1000;
  const appendonly = options.appendonly ?? true;
  const timeoutMs = options.timeoutMs ?? 30_000;
  const binary = process.env.REDIS_SERVER_BIN ?? 'redis-server';
  const count = masters * (1 + replicasPerMaster);
  const processes = new Map<number, NodeProcess>();
  const taken = new Set<number>();

  const killAll = () => {
    for (const node of processes.values()) {
      if (node.child && node.child.exitCode === null) node.child.kill('SIGKILL');
    }
  };
  // Last resort if the test process exits without calling stop().
  process.once('exit', killAll);

  const argsFor = ({ port, dir }: NodeProcess) => {
    return [
      '--port',
      String(port),
      '--bind',
      HOST,
      '--protected-mode',
      'no',
      '--dir',
      dir,
      '--cluster-enabled',
      'yes',
      '--cluster-config-file',
      join(dir, 'nodes.conf'),
      '--cluster-node-timeout',
      String(nodeTimeoutMs),
      '--cluster-replica-validity-factor',
      '0',
      '--appendonly',
      appendonly ? 'yes' : 'no',
      '--save',
      '',
      '--maxmemory-policy',
      'noeviction',
      // A replica's full sync would otherwise wait 5 s for more replicas to join the transfer.
      '--repl-diskless-sync-delay',
      '0',
    ];
  };

  /** Spawns the node's `redis-server` and resolves once it answers PING. */
  const spawnNode = async (node: NodeProcess) => {
    const spawned = spawn(binary, argsFor(node), { stdio: ['ignore', 'pipe', 'pipe'] });
    node.child = spawned;
    let output = '';
    const collect = (chunk: Buffer) => {
      // Keep the tail only: enough to explain a failed start.
      output = (output + chunk).slice(-4000);
    };
    spawned.stdout?.on('data', collect);
    spawned.stderr?.on('data', collect);
    const exited = new Promise<never>((_, reject) => {
      spawned.once('error', (error) =>
        reject(new Error(`cannot start ${binary} (install redis-server): ${error.message}`)),
      );
      spawned.once('exit', (code, signal) =>
        reject(new Error(`redis-server on ${node.port} exited (${code ?? signal}): ${output}`)),
      );
    });
    exited.catch(() => {});
    await Promise.race([
      waitUntil(
        `redis-server on ${node.port} to answer PING`,
        async () => ((await text(node.port, 'PING')) === 'PONG' ? true : `${node.port} no PONG`),
        timeoutMs,
      ),
      exited,
    ]);
  };

  /** SIGKILLs the node's process and waits until it has exited (and is reaped). */
  const killNode = async (node: NodeProcess) => {
    const running = node.child;
    node.child = null;
    if (!running || running.exitCode !== null || running.signalCode !== null) return;
    const gone = new Promise((resolve) => running.once('exit', resolve));
    running.kill('SIGKILL');
    await gone;
  };

  const alivePorts = () => [...processes.values()].filter((node) => node.child).map((n) => n.port);

  /** Every live node: ok, all slots assigned, and (if a replica) linked to its master. */
  const clusterHealthy = async (): Promise<true | string> => {
    const problems: string[] = [];
    await Promise.all(
      alivePorts().map(async (port) => {
        const info = await text(port, 'CLUSTER', 'INFO');
        if (info === null) return problems.push(`${port}: no answer`);
        const state = infoField(info, 'cluster_state');
        const assigned = Number(infoField(info, 'cluster_slots_assigned'));
        if (state !== 'ok') problems.push(`${port}: cluster_state:${state}`);
        if (assigned !== TOTAL_SLOTS) problems.push(`${port}: ${assigned} slots assigned`);
        const replication = await text(port, 'INFO', 'replication');
        if (infoField(replication, 'role') === 'slave') {
          const link = infoField(replication, 'master_link_status');
          if (link !== 'up') problems.push(`${port}: master_link_status:${link}`);
        }
        return undefined;
      }),
    );
    return problems.length === 0 ? true : problems.sort().join(', ');
  };

  /** The view of `CLUSTER NODES` from the first live node that answers. */
  const anyView = async (): Promise<NodesLine[]> => {
    for (const port of alivePorts()) {
      const view = await clusterNodes(port);
      if (view) return view;
    }
    throw new Error('no live cluster node answers CLUSTER NODES');
  };

  const nodes = async (): Promise<ClusterNodeInfo[]> => {
    const view = await anyView();
    const portOf = new Map(view.map((line) => [line.id, line.port]));
    const result = await Promise.all(
      [...processes.values()].map(async (node) => {
        // A live node is the authority on itself; a killed one is described by the others.
        const own = node.child ? await clusterNodes(node.port) : null;
        const line =
          own?.find((entry) => entry.flags.includes('myself')) ??
          view.find((entry) => entry.port === node.port);
        if (!line) throw new Error(`node ${node.port} is not in the cluster`);
        const replica = line.flags.includes('slave');
        return {
          port: node.port,
          id: line.id,
          role: replica ? ('replica' as const) : ('master' as const),
          pid: node.child?.pid ?? null,
          alive: node.child !== null,
          masterPort: replica && line.masterId ? (portOf.get(line.masterId) ?? null) : null,
          slots: replica ? [] : line.slots,
        };
      }),
    );
    return result.sort((a, b) => a.port - b.port);
  };

  const stop = async () => {
    process.removeListener('exit', killAll);
    await Promise.all([...processes.values()].map(killNode));
    for (const node of processes.values()) rmSync(node.dir, { recursive: true, force: true });
  };

  try {
    // Start every node; a port grabbed by someone else between the check and the bind gets
    // a fresh pair. All starts are settled before a failure is thrown, so that the cleanup
    // below cannot miss a process still being spawned.
    const started = await Promise.allSettled(
      Array.from({ length: count }, async () => {
        for (let attempt = 0; ; attempt++) {
          const port = await freeClusterPort(taken);
          const node: NodeProcess = {
            port,
            dir: mkdtempSync(join(tmpdir(), `cspwatch-redis-cluster-${port}-`)),
            child: null,
          };
          processes.set(port, node);
          try {
            await spawnNode(node);
            return;
          } catch (error) {
            await killNode(node);
            processes.delete(port);
            rmSync(node.dir, { recursive: true, force: true });
            const busy = /address already in use/i.test(String(error));
            if (!busy || attempt >= 5) throw error;
          }
        }
      }),
    );
    const failed = started.find((result) => result.status === 'rejected');
    if (failed) throw failed.reason;
    const ports = [...processes.keys()];
    await redisCli(
      [
        '--cluster',
        'create',
        ...ports.map((port) => `${HOST}:${port}`),
        '--cluster-replicas',
        String(replicasPerMaster),
        '--cluster-yes',
      ],
      timeoutMs,
    );
    await waitUntil('the new cluster to be ok on every node', clusterHealthy, timeoutMs);
  } catch (error) {
    await stop();
    throw error;
  }

  const initial = await nodes();
  const startupNodes = [
    ...initial.filter((node) => node.role === 'master'),
    ...initial.filter((node) => node.role === 'replica'),
  ].map((node) => ({ host: HOST, port: node.port }));

  return {
    startupNodes,
    nodes,
    async killMaster(which) {
      const before = await nodes();
      const target =
        'port' in which
          ? before.find((node) => node.port === which.port)
          : before.find((node) =>
              node.slots.some(([first, last]) => which.slot >= first && which.slot <= last),
            );
      const described = JSON.stringify(which);
      if (!target) throw new Error(`no node for ${described}`);
      if (target.role !== 'master' || !target.alive) {
        throw new Error(`node ${target.port} is not a live master`);
      }
      const replicas = before.filter((node) => node.masterPort === target.port && node.alive);
      if (replicas.length === 0) throw new Error(`master ${target.port} has no live replica`);
      const victim = processes.get(target.port);
      if (!victim) throw new Error(`node ${target.port} is not ours`);

      const killedAt = Date.now();
      await killNode(victim);
      let promotedPort = 0;
      let failoverMs = 0;
      await waitUntil(
        `a replica of ${target.port} (${replicas.map((r) => r.port).join(', ')}) to take over`,
        async () => {
          for (const replica of replicas) {
            const role = await command(replica.port, 'ROLE').catch(() => null);
            const info = await text(replica.port, 'CLUSTER', 'INFO');
            if (Array.isArray(role) && role[0] === 'master') {
              if (infoField(info, 'cluster_state') === 'ok') {
                failoverMs = Date.now() - killedAt;
                promotedPort = replica.port;
                return true;
              }
            }
          }
          return `replicas ${replicas.map((r) => r.port).join(', ')} not yet master with cluster_state:ok`;
        },
        timeoutMs,
      );
      await waitUntil(
        `cluster_state:ok on every live node after killing ${target.port}`,
        clusterHealthy,
        timeoutMs,
      );
      return { killedPort: target.port, promotedPort, failoverMs };
    },
    async restartNode(port) {
      const node = processes.get(port);
      if (!node) throw new Error(`node ${port} is not ours`);
      if (node.child) throw new Error(`node ${port} is running`);
      await spawnNode(node);
      await waitUntil(
        `restarted node ${port} to rejoin as a connected replica`,
        async () => {
          const own = await clusterNodes(port);
          const myself = own?.find((entry) => entry.flags.includes('myself'));
          if (!myself) return `${port}: no CLUSTER NODES`;
          if (!myself.flags.includes('slave')) return `${port}: still ${myself.flags.join(',')}`;
          const problems: string[] = [];
          for (const other of alivePorts().filter((p) => p !== port)) {
            const view = await clusterNodes(other);
            const seen = view?.find((entry) => entry.id === myself.id);
            if (!seen) problems.push(`${other} does not know ${port}`);
            else if (!seen.connected || seen.flags.some((f) => f === 'fail' || f === 'fail?')) {
              problems.push(`${other} sees ${port} as ${seen.flags.join(',')}`);
            }
          }
          return problems.length === 0 ? true : problems.join(', ');
        },
        timeoutMs,
      );
      await waitUntil(`cluster_state:ok after restarting ${port}`, clusterHealthy, timeoutMs);
    },
    stop,
  };
}
