import {
  type RedisClusterHandle,
  startRedisCluster,
} from '../../packages/redis/test/helpers/redis-cluster.js';
import {
  type RedisServerHandle,
  startRedisServer,
} from '../../packages/redis/test/helpers/redis-server.js';
import { type CountingReceiver, startCountingReceiver } from './counting-receiver.js';
import { benchWorkload } from './redis-bench-queues.js';
import {
  buildRedisClusterResult,
  CLUSTER_SETUPS,
  type ClusterBenchPlan,
  type ClusterSetupKey,
} from './redis-cluster-result.js';
import { type RunResult, runDeliveries } from './redis-delivery-run.js';
import {
  clusterDeployment,
  measureIdleCpu,
  type RedisDeployment,
  standaloneDeployment,
} from './redis-deployment.js';
import { startWorkerProcesses, type WorkerProcess } from './redis-worker-pool.js';
import type { SectionResult } from './report.js';

const FULL: ClusterBenchPlan = {
  workerProcesses: 2,
  concurrency: 50,
  // Enough channels that the default in-flight cap per channel (4) never binds at 2 x 50.
  channels: 100,
  deliveries: 2_000,
  rounds: 3,
  warmUp: 1_000,
  idleMs: 1_000,
  budgetMs: 55_000,
};
const QUICK: ClusterBenchPlan = {
  ...FULL,
  deliveries: 400,
  rounds: 1,
  warmUp: 200,
  idleMs: 500,
  budgetMs: 22_000,
};

/** What the section runs on: both Redis deployments, the receiver, the worker processes. */
interface Started {
  readonly server: RedisServerHandle;
  readonly cluster: RedisClusterHandle;
  readonly receiver: CountingReceiver;
  readonly processes: readonly WorkerProcess[];
}

/** Stops what was started (any of it may be missing). */
async function stopAll(started: { [K in keyof Started]?: Started[K] | undefined }): Promise<void> {
  const { server, cluster, receiver, processes = [] } = started;
  await Promise.allSettled([
    ...processes.map((child) => child.kill()),
    server?.stop(),
    cluster?.stop(),
    receiver && new Promise((resolve) => receiver.server.close(resolve)),
  ]);
}

/** Starts everything at once; stops what did start and rethrows if anything failed. */
async function startAll(plan: ClusterBenchPlan): Promise<Started> {
  const [server, cluster, receiver, processes] = await Promise.allSettled([
    startRedisServer(),
    // Like a production cluster: no AOF (the standalone server has none either) and Redis's
    // default node timeout, so that the cluster bus gossips at its usual pace.
    startRedisCluster({ appendonly: false, nodeTimeoutMs: 15_000 }),
    startCountingReceiver(),
    startWorkerProcesses(plan.workerProcesses),
  ]);
  if (
    server.status === 'fulfilled' &&
    cluster.status === 'fulfilled' &&
    receiver.status === 'fulfilled' &&
    processes.status === 'fulfilled'
  ) {
    return {
      server: server.value,
      cluster: cluster.value,
      receiver: receiver.value,
      processes: processes.value,
    };
  }
  const value = <T>(result: PromiseSettledResult<T>) =>
    result.status === 'fulfilled' ? result.value : undefined;
  await stopAll({
    server: value(server),
    cluster: value(cluster),
    receiver: value(receiver),
    processes: value(processes),
  });
  throw [server, cluster, receiver, processes].find((result) => result.status === 'rejected')
    ?.reason;
}

/** Runs the Redis Cluster section. */
export async function runRedisClusterBench(quick: boolean): Promise<SectionResult> {
  const plan = quick ? QUICK : FULL;
  const handles = await startAll(plan);
  const { server, cluster, receiver, processes } = handles;
  const deployments: RedisDeployment[] = [];
  try {
    const standalone = standaloneDeployment(server.url);
    deployments.push(standalone);
    const clustered = await clusterDeployment(cluster);
    deployments.push(clustered);
    const on = { standalone, cluster: clustered };
    const deadlineAt = Date.now() + plan.budgetMs;
    const { channels, jobs } = benchWorkload(
      receiver.url,
      plan.channels,
      'bench-cluster-secret-0123456789',
    );
    const run = (redis: RedisDeployment, shards: number, count: number) =>
      runDeliveries(
        { redis, receiver, deadlineAt },
        {
          kind: 'ours',
          workers: processes,
          concurrency: plan.concurrency,
          channels,
          shards,
          jobs: jobs(count),
        },
      );
    // Warm the worker processes' code on both client paths (Redis and Cluster) first.
    await run(on.standalone, 1, plan.warmUp);
    await run(on.cluster, 3, plan.warmUp);
    const idle = await measureIdleCpu([on.standalone, on.cluster], plan.idleMs);
    const results = new Map<ClusterSetupKey, RunResult[]>(CLUSTER_SETUPS.map((s) => [s.key, []]));
    for (let round = 0; round < plan.rounds; round += 1) {
      // Reversed every other round, so that drift of the machine favours no setup.
      const order = round % 2 === 0 ? CLUSTER_SETUPS : [...CLUSTER_SETUPS].reverse();
      for (const s of order) {
        results.get(s.key)!.push(await run(on[s.deployment], s.shards, plan.deliveries));
      }
    }
    const nodes = await cluster.nodes();
    return buildRedisClusterResult({ results, plan, nodes, idle });
  } finally {
    for (const redis of deployments) redis.close();
    await stopAll(handles);
  }
}
