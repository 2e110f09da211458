/**
 * Proves the Redis Cluster test harness (`helpers/redis-cluster.ts`) against ioredis's `Cluster`
 * client: the cluster comes up with every slot served, keys are routed across the three masters,
 * a SIGKILLed master is replaced by its replica and the same client keeps working, the killed
 * node rejoins as a replica, and teardown leaves no `redis-server` of ours running.
 */
import { Cluster, Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RedisClusterHandle, startRedisCluster } from './helpers/redis-cluster';
import { waitFor } from './helpers/wait-for';

let cluster: RedisClusterHandle;
let client: Cluster;
const direct: Redis[] = [];
let failover: { killedPort: number; promotedPort: number; failoverMs: number } | undefined;
const keys = Array.from({ length: 100 }, (_, i) => `harness:key-${i}`);

const isRunning = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

beforeAll(async () => {
  cluster = await startRedisCluster();
  client = new Cluster(cluster.startupNodes, {
    scaleReads: 'master',
    retryDelayOnFailover: 100,
    retryDelayOnClusterDown: 100,
    slotsRefreshTimeout: 1000,
    redisOptions: { connectTimeout: 1000, maxRetriesPerRequest: 2 },
  });
  // Connection errors to the killed master are expected; the commands below check the outcome.
  client.on('error', () => {});
  client.on('node error', () => {});
});

afterAll(async () => {
  client?.disconnect();
  for (const connection of direct) connection.disconnect();
  await cluster?.stop();
});

describe('startRedisCluster', () => {
  it('starts 3 masters with 1 replica each, every slot assigned and cluster_state:ok', async () => {
    const nodes = await cluster.nodes();
    expect(nodes).toHaveLength(6);
    const masters = nodes.filter((node) => node.role === 'master');
    const replicas = nodes.filter((node) => node.role === 'replica');
    expect(masters).toHaveLength(3);
    expect(replicas).toHaveLength(3);
    expect(cluster.startupNodes.slice(0, 3).map((node) => node.port)).toEqual(
      expect.arrayContaining(masters.map((node) => node.port)),
    );
    for (const master of masters) {
      const owned = master.slots.reduce((sum, [first, last]) => sum + last - first + 1, 0);
      expect(owned).toBeGreaterThanOrEqual(5400);
      expect(owned).toBeLessThanOrEqual(5500);
      expect(replicas.filter((replica) => replica.masterPort === master.port)).toHaveLength(1);
    }
    for (const node of nodes) {
      expect(node.alive).toBe(true);
      expect(node.pid).toBeGreaterThan(0);
    }
    const info = String(await client.cluster('INFO'));
    expect(info).toMatch(/^cluster_state:ok/m);
    expect(info).toMatch(/^cluster_slots_assigned:16384/m);
    expect(info).toMatch(/^cluster_known_nodes:6/m);
  });

  it('routes SET/GET of 100 keys over slots served by all three masters', async () => {
    const nodes = await cluster.nodes();
    const ownerOf = (slot: number) =>
      nodes.find((node) => node.slots.some(([first, last]) => slot >= first && slot <= last))?.port;
    const owners = new Set<number | undefined>();
    for (const key of keys) {
      owners.add(ownerOf(Number(await client.cluster('KEYSLOT', key))));
    }
    expect(owners.size).toBe(3);
    expect(owners.has(undefined)).toBe(false);
    await Promise.all(keys.map((key) => client.set(key, `value-of-${key}`)));
    const values = await Promise.all(keys.map((key) => client.get(key)));
    expect(values).toEqual(keys.map((key) => `value-of-${key}`));
  });

  it('promotes the replica when the master of a key is SIGKILLed; the same client carries on', async () => {
    const key = keys[0] as string;
    const slot = Number(await client.cluster('KEYSLOT', key));
    const before = await cluster.nodes();
    const master = before.find((node) =>
      node.slots.some(([first, last]) => slot >= first && slot <= last),
    );
    const replica = before.find((node) => node.masterPort === master?.port);
    if (!master || !replica) throw new Error(`no master with a replica serves slot ${slot}`);
    // Replication is asynchronous: make sure the replica has the key before killing its master.
    const onReplica = new Redis({ host: '127.0.0.1', port: replica.port, lazyConnect: true });
    direct.push(onReplica);
    await onReplica.connect();
    await onReplica.readonly();
    await waitFor('the replica to have the key', async () => (await onReplica.get(key)) !== null);

    const result = await cluster.killMaster({ slot });
    failover = result;
    expect(result.killedPort).toBe(master.port);
    expect(result.promotedPort).toBe(replica.port);
    expect(result.failoverMs).toBeGreaterThan(0);
    expect(result.failoverMs).toBeLessThan(15_000);
    console.info(
      `failover of ${result.killedPort} -> ${result.promotedPort}: ${result.failoverMs} ms`,
    );

    const after = await cluster.nodes();
    const killed = after.find((node) => node.port === result.killedPort);
    const promoted = after.find((node) => node.port === result.promotedPort);
    expect(killed?.alive).toBe(false);
    expect(killed?.pid).toBeNull();
    expect(promoted?.role).toBe('master');
    expect(promoted?.slots.some(([first, last]) => slot >= first && slot <= last)).toBe(true);

    const recoveredAt = Date.now();
    await waitFor(
      'the Cluster client to read and write the key again',
      async () => {
        try {
          const previous = await client.get(key);
          await client.set(key, 'after-failover');
          return previous === `value-of-${key}` && (await client.get(key)) === 'after-failover';
        } catch {
          return false;
        }
      },
      20_000,
    );
    console.info(`client recovered ${Date.now() - recoveredAt} ms after the failover`);
    const values = await Promise.all(keys.slice(1).map((other) => client.get(other)));
    expect(values).toEqual(keys.slice(1).map((other) => `value-of-${other}`));
  });

  it('restarts the killed node as a replica of the promoted one', async () => {
    if (!failover) throw new Error('needs the failover test to have run');
    expect((await cluster.nodes()).filter((node) => !node.alive).map((node) => node.port)).toEqual([
      failover.killedPort,
    ]);
    await cluster.restartNode(failover.killedPort);
    const nodes = await cluster.nodes();
    const rejoined = nodes.find((node) => node.port === failover?.killedPort);
    expect(rejoined?.alive).toBe(true);
    expect(rejoined?.role).toBe('replica');
    expect(rejoined?.masterPort).toBe(failover.promotedPort);
    expect(nodes.filter((node) => node.role === 'master')).toHaveLength(3);
    expect(await client.get(keys[0] as string)).toBe('after-failover');
  });

  it('stops every redis-server it started', async () => {
    const pids = (await cluster.nodes()).map((node) => node.pid);
    expect(pids.every((pid) => typeof pid === 'number')).toBe(true);
    client.disconnect();
    await cluster.stop();
    for (const pid of pids) expect(isRunning(pid as number)).toBe(false);
  });
});
