/**
 * What the Redis Cluster section compares and how it reports it: the setups of a round, and
 * the targets and Markdown built from the runs.
 */
import type { ClusterNodeInfo } from '../../packages/redis/test/helpers/redis-cluster.js';
import {
  type ClusterSetupFigures,
  clusterCostTable,
  clusterProjectionTable,
  type MasterFigures,
  mastersTable,
} from './redis-cluster-report.js';
import type { RunResult } from './redis-delivery-run.js';
import { commandBreakdown } from './redis-queue-report.js';
import { figuresOf } from './redis-queue-result.js';
import { costOfRole } from './redis-stats.js';
import { formatRatio, median, type SectionResult, type TargetResult } from './report.js';

/** How much the section runs. */
export interface ClusterBenchPlan {
  /** Worker processes of every run. */
  readonly workerProcesses: number;
  /** Deliveries in flight per worker process. */
  readonly concurrency: number;
  /** Channels the alerts are spread over. */
  readonly channels: number;
  /** Deliveries per setup and round. */
  readonly deliveries: number;
  readonly rounds: number;
  /** Deliveries of the warm-up run on each deployment. */
  readonly warmUp: number;
  /** How long the nodes' CPU is measured with no work, ms. */
  readonly idleMs: number;
  /** Every wait of the section fails after this long, ms. */
  readonly budgetMs: number;
}

/** The setups of a round, in order: which Redis, and our queue's `shards`. */
export const CLUSTER_SETUPS = [
  { key: 'standalone', label: 'one redis-server, shards: 1', deployment: 'standalone', shards: 1 },
  { key: 'standalone3', label: 'one redis-server, shards: 3', deployment: 'standalone', shards: 3 },
  {
    key: 'cluster',
    label: 'cluster, 3 masters + 3 replicas, shards: 3',
    deployment: 'cluster',
    shards: 3,
  },
] as const;

/** A setup's key. */
export type ClusterSetupKey = (typeof CLUSTER_SETUPS)[number]['key'];

/** What the section measured. */
export interface ClusterBenchMeasured {
  /** The runs of each setup, one per round. */
  readonly results: ReadonlyMap<ClusterSetupKey, readonly RunResult[]>;
  readonly plan: ClusterBenchPlan;
  /** The cluster's nodes at the end (roles and slots). */
  readonly nodes: readonly ClusterNodeInfo[];
  /** Each node's CPU seconds per second with no work, by `host:port`. */
  readonly idle: ReadonlyMap<string, number>;
}

/** Share of each master in the cluster runs: at least this and at most {@link SHARE_MAX}. */
const SHARE_MIN = 0.2;
const SHARE_MAX = 0.45;
/** Largest cluster / one redis-server ratio, of commands and of Redis CPU per delivery. */
const RATIO_MAX = 1.2;

const commands = (run: RunResult) => (run.enqueue.commands + run.delivery.commands) / run.jobs;
const redisCpu = (run: RunResult) => (run.enqueue.cpuSeconds + run.delivery.cpuSeconds) / run.jobs;
const workerCpu = (run: RunResult) => run.workerCpuSeconds / run.jobs;

/** A setup's figures, with its replicas' and its masters' idle CPU over the run's time. */
function clusterFiguresOf(
  label: string,
  runs: readonly RunResult[],
  idle: ReadonlyMap<string, number>,
): ClusterSetupFigures {
  const replicas = runs.map((run) => costOfRole(run.nodes, 'replica'));
  const idleOfMasters = (run: RunResult) =>
    run.nodes.reduce((sum, n) => sum + (n.role === 'master' ? (idle.get(n.node) ?? 0) : 0), 0);
  return {
    ...figuresOf(label, runs),
    replicaCommands: replicas.reduce((sum, cost) => sum + cost.commands, 0),
    replicaCpu: replicas.map((cost, round) => cost.cpuSeconds / runs[round]!.jobs),
    idleCpu: runs.map(
      (run) => (idleOfMasters(run) * (run.enqueueSeconds + run.seconds)) / run.jobs,
    ),
  };
}

/** Each master's commands (summed over the rounds) and CPU per delivery (per round). */
function mastersOf(runs: readonly RunResult[], nodes: readonly ClusterNodeInfo[]): MasterFigures[] {
  const names = [
    ...new Set(
      runs.flatMap((run) => run.nodes.filter((n) => n.role === 'master').map((n) => n.node)),
    ),
  ];
  return names.map((name) => {
    const costs = runs.map((run) => run.nodes.find((entry) => entry.node === name)?.cost);
    const info = nodes.find((node) => name.endsWith(`:${node.port}`));
    return {
      node: name,
      slots: (info?.slots ?? []).map(([first, last]) => `${first}-${last}`).join(', '),
      commands: costs.reduce((sum, cost) => sum + (cost?.commands ?? 0), 0),
      deliveries: runs.reduce((sum, run) => sum + run.jobs, 0),
      cpu: costs.map((cost, round) => (cost?.cpuSeconds ?? 0) / runs[round]!.jobs),
    };
  });
}

function ratioTarget(name: string, value: number): TargetResult {
  return {
    section: 'redis-cluster',
    target: name,
    value: formatRatio(value),
    limit: `<= ${RATIO_MAX.toFixed(2)}x`,
    pass: value <= RATIO_MAX,
  };
}

/** The section's targets and Markdown. */
export function buildRedisClusterResult(measured: ClusterBenchMeasured): SectionResult {
  const { results, plan, nodes, idle } = measured;
  const runs = (key: ClusterSetupKey) => results.get(key) ?? [];
  /** Median over rounds of the cluster's figure / one redis-server's, both of the same round. */
  const perRound = (figure: (run: RunResult) => number) =>
    runs('cluster').map((run, round) => figure(run) / figure(runs('standalone')[round]!));
  const paired = (figure: (run: RunResult) => number) => median(perRound(figure));
  const figures = CLUSTER_SETUPS.map((s) => clusterFiguresOf(s.label, runs(s.key), idle));
  const masters = mastersOf(runs('cluster'), nodes);
  const nodesOf = (key: ClusterSetupKey, role: 'master' | 'replica') =>
    (runs(key)[0]?.nodes ?? []).filter((n) => n.role === role).map((n) => n.node);
  const [standaloneNodes, replicaNodes] = [
    nodesOf('standalone', 'master'),
    nodesOf('cluster', 'replica'),
  ];
  const idleOf = (names: readonly string[]) =>
    names.map((name) => `${((idle.get(name) ?? 0) * 1e3).toFixed(1)} ms/s`).join(', ');
  const total = masters.reduce((sum, master) => sum + master.commands, 0);
  const shares = masters.map((master) => master.commands / total);
  const percent = (share: number) => `${(share * 100).toFixed(0)}%`;
  const targets: TargetResult[] = [
    ratioTarget(
      'Redis commands per delivery (sum over the masters), cluster with shards: 3 / one redis-server with shards: 1',
      paired(commands),
    ),
    ratioTarget(
      'Redis CPU per delivery (sum over the masters), cluster with shards: 3 / one redis-server with shards: 1',
      paired(redisCpu),
    ),
    {
      section: 'redis-cluster',
      target: "each master's share of the cluster's commands (shards: 3)",
      value: shares.map(percent).join(' / '),
      limit: `each ${percent(SHARE_MIN)}-${percent(SHARE_MAX)}`,
      pass: shares.length === 3 && shares.every((s) => s >= SHARE_MIN && s <= SHARE_MAX),
    },
  ];
  const notes = [
    `Each setup delivers ${plan.deliveries.toLocaleString('en')} alerts per round (${plan.rounds} round(s), the order reversed every other round) spread over ${plan.channels} channels to one node:http receiver on 127.0.0.1, through our queue and ${plan.workerProcesses} worker processes at concurrency ${plan.concurrency} each (the same two processes in every run; each first delivered ${plan.warmUp.toLocaleString('en')} alerts on each deployment to warm up). One redis-server and a cluster of 3 masters with 1 replica each, all on this machine, none with persistence; the cluster with Redis's default \`cluster-node-timeout\` (15 s).`,
    "A run enqueues into a queue of its own, pauses it, starts the workers, and resumes; it ends when no BullMQ queue of it has a job left. Redis figures: `INFO commandstats` calls (script-internal ones included; the bench's own INFO and polls left out) and `INFO cpu` (user + system) of every node, over the enqueue and the delivery phase; the targets sum the masters and are medians of per-round ratios. A replica's commands are the writes it replays, reported apart. Commands are summed over the rounds, CPU figures are medians of the rounds. Deliveries/s depend on what else the machine runs and are printed for the record only.",
    `Per round, cluster / one redis-server: Redis CPU per delivery ${perRound(redisCpu).map(formatRatio).join(', ')}; worker CPU per delivery ${perRound(workerCpu).map(formatRatio).join(', ')}. Why the cluster's masters spend more CPU for the same commands: bench/README.md.`,
    `Idle: each node's CPU per second over ${plan.idleMs.toLocaleString('en')} ms with no work, after the warm-up (one redis-server: ${idleOf(standaloneNodes)}; the cluster's masters: ${idleOf(masters.map((m) => m.node))}; its replicas: ${idleOf(replicaNodes)}). In brackets in the table: the masters' idle rate times the run's time (enqueue and delivery), per delivery, which each run pays whatever it does.`,
  ];
  const markdown = [
    clusterCostTable(figures),
    notes.map((n) => `- ${n}`).join('\n'),
    `**The masters** in the cluster runs: each one's share of the commands (enqueue and delivery phases, summed over the rounds) and its Redis CPU per delivery of the whole run.`,
    mastersTable(masters, total),
    '**Commands by name**: calls per delivery, summed over the masters, the cluster against one redis-server with shards: 1 (enqueue and delivery phases, all rounds).',
    commandBreakdown(figures[2]!, figures[0]!, [
      'cluster per delivery',
      'one redis-server per delivery',
    ]),
    '**Projection** from the costs above (method in bench/README.md): deliveries/s that one Redis core, or one core of worker processes, could sustain at these costs; for the cluster, each master on a core of its own, and the three masters taken together.',
    clusterProjectionTable(figures, masters),
  ];
  return {
    title: 'Redis delivery queue on Redis Cluster: cost per delivery',
    markdown: markdown.join('\n\n'),
    targets,
  };
}
