/**
 * Where the Redis queue bench runs its queues: one redis-server, or a Redis Cluster. Our queue
 * and workers get its `connection`; the bench controls and polls the BullMQ queues through its
 * `client`, reads every node's counters (masters and replicas apart), finds keys on every
 * master, knows which master holds a key, and measures what the nodes spend when idle.
 */
import { Cluster, Redis } from 'ioredis';
import type { RedisClusterHandle } from '../../packages/redis/test/helpers/redis-cluster.js';
import { type NodeSnapshot, nodeCostsBetween, snapshotRedis } from './redis-stats.js';
import type { BenchConnection } from './redis-worker-protocol.js';

/** A standalone redis-server or a Redis Cluster, seen from the bench. */
export interface RedisDeployment {
  /** Our queue's and worker's `connection`. */
  readonly connection: BenchConnection;
  /** The bench's own client (BullMQ control queues, polls): a `Cluster` on a cluster. */
  readonly client: Redis | Cluster;
  /** Every node's counters now (INFO on each, at once), masters first. */
  snapshot(): Promise<NodeSnapshot[]>;
  /** The keys matching `pattern` on every master. */
  scan(pattern: string): Promise<string[]>;
  /** The `host:port` of the master that holds `key`. */
  masterOf(key: string): Promise<string>;
  /** Closes the bench's clients (not the servers). */
  close(): void;
}

interface Node {
  readonly name: string;
  readonly role: 'master' | 'replica';
  readonly client: Redis;
  /** Inclusive slot ranges (masters of a cluster). */
  readonly slots: readonly (readonly [number, number])[];
}

/** The bench's queues leave far fewer keys than this many pages of SCAN visit. */
const MAX_SCAN_PAGES = 10_000;

async function scanNode(client: Redis, pattern: string): Promise<string[]> {
  const found: string[] = [];
  let cursor = '0';
  for (let page = 0; page < MAX_SCAN_PAGES; page += 1) {
    const [next, keys] = await client.scan(cursor, 'MATCH', pattern, 'COUNT', 1000);
    found.push(...keys);
    cursor = next;
    if (cursor === '0') return found;
  }
  throw new Error(`redis section: SCAN ${pattern} did not finish in ${MAX_SCAN_PAGES} pages`);
}

function deploymentOf(
  connection: BenchConnection,
  client: Redis | Cluster,
  nodes: readonly Node[],
): RedisDeployment {
  const masters = nodes.filter((node) => node.role === 'master');
  return {
    connection,
    client,
    snapshot: () =>
      Promise.all(
        nodes.map(async ({ name, role, client: own }) => ({
          node: name,
          role,
          snapshot: await snapshotRedis(own),
        })),
      ),
    scan: async (pattern) =>
      (await Promise.all(masters.map((node) => scanNode(node.client, pattern)))).flat(),
    async masterOf(key) {
      if (masters.length === 1) return masters[0]!.name;
      const slot = Number(await masters[0]!.client.call('CLUSTER', 'KEYSLOT', key));
      const master = masters.find((node) =>
        node.slots.some(([first, last]) => slot >= first && slot <= last),
      );
      if (!master) throw new Error(`redis section: no master serves slot ${slot}`);
      return master.name;
    },
    close() {
      client.disconnect();
      for (const node of nodes) node.client.disconnect();
    },
  };
}

/** A standalone redis-server at `url` (`redis://host:port`). */
export function standaloneDeployment(url: string): RedisDeployment {
  const { hostname, port } = new URL(url);
  const client = new Redis(url);
  const node: Node = { name: `${hostname}:${port}`, role: 'master', client, slots: [] };
  return deploymentOf(url, client, [node]);
}

/**
 * A running Redis Cluster (packages/redis/test/helpers/redis-cluster.ts), with its roles and
 * slots as they are now. The bench's cluster client does not refresh its slots on a timer, so
 * that it sends the nodes nothing the workers do not.
 */
export async function clusterDeployment(cluster: RedisClusterHandle): Promise<RedisDeployment> {
  const seeds = cluster.startupNodes.map(({ host, port }) => ({ host, port }));
  const host = seeds[0]?.host ?? '127.0.0.1';
  const nodes: Node[] = (await cluster.nodes())
    .sort((a, b) => (a.role === b.role ? a.port - b.port : a.role === 'master' ? -1 : 1))
    .map((node) => ({
      name: `${host}:${node.port}`,
      role: node.role,
      client: new Redis({ host, port: node.port }),
      slots: node.slots,
    }));
  const client = new Cluster(seeds, { slotsRefreshInterval: 0 });
  return deploymentOf({ cluster: seeds }, client, nodes);
}

/**
 * Each node's CPU seconds per second over `ms` while the bench sends it nothing but INFO (its
 * cron and, on a cluster, the cluster bus), by `host:port`.
 */
export async function measureIdleCpu(
  deployments: readonly RedisDeployment[],
  ms: number,
): Promise<Map<string, number>> {
  const snapshots = () => Promise.all(deployments.map((redis) => redis.snapshot()));
  const before = (await snapshots()).flat();
  const started = performance.now();
  await new Promise((resolve) => setTimeout(resolve, ms));
  const after = (await snapshots()).flat();
  const seconds = (performance.now() - started) / 1000;
  const costs = nodeCostsBetween(before, after);
  return new Map(costs.map(({ node, cost }) => [node, cost.cpuSeconds / seconds]));
}
