/**
 * What the Redis queue section compares and how it reports it: the worker setups of a round,
 * and the targets and Markdown built from the runs.
 */
import { describePinning, type Pinning } from './cpu-pinning.js';
import type { JobTemplate } from './redis-bench-queues.js';
import type { RunResult } from './redis-delivery-run.js';
import {
  FAIRNESS_SENDER_TIMEOUT_MS,
  type FairnessResult,
  HEALTHY_CHANNELS,
  MAX_IN_FLIGHT_PER_CHANNEL,
} from './redis-fairness.js';
import { PARKING_BACKLOG, type ParkingCost } from './redis-parking.js';
import { type PartsPerDelivery, partsTable } from './redis-queue-parts.js';
import {
  commandBreakdown,
  costTable,
  fairnessTable,
  micros,
  projectionTable,
  type SetupFigures,
} from './redis-queue-report.js';
import { addCosts, NO_COST } from './redis-stats.js';
import { formatRatio, median, type SectionResult, type TargetResult } from './report.js';

/** How much the section runs. */
export interface RedisBenchPlan {
  /** Deliveries in flight per worker process, the same in every setup. */
  readonly concurrency: number;
  /** Channels the cost runs spread their alerts over. */
  readonly channels: number;
  /** Deliveries per setup and round. */
  readonly deliveries: number;
  readonly rounds: number;
  /** Deliveries each worker process makes before any measured run. */
  readonly warmUp: number;
  /** Alerts per channel in a fairness run, and fairness rounds. */
  readonly fairPerChannel: number;
  readonly fairRounds: number;
  /** Runs that park a disabled channel's backlog. */
  readonly parkRounds: number;
  /** Deliveries of the round-trip (MONITOR) run. */
  readonly sample: number;
  /** Every wait of the section fails after this long, ms. */
  readonly budgetMs: number;
}

/** The setups of a round, in order: which worker kind, in how many worker processes. */
export const SETUPS = [
  { key: 'ours1', label: 'our worker, 1 process', kind: 'ours', processes: 1 },
  {
    key: 'floor',
    label: 'BullMQ floor: plain Worker, empty processor',
    kind: 'floor',
    processes: 1,
  },
  {
    key: 'plain',
    label: 'plain BullMQ Worker calling sender.deliver',
    kind: 'plain',
    processes: 1,
  },
  {
    key: 'pacedFloor',
    label: "BullMQ floor at our pace: empty processor waiting as long as our worker's jobs take",
    kind: 'floor',
    processes: 1,
  },
  { key: 'ours2', label: 'our worker, 2 processes', kind: 'ours', processes: 2 },
  { key: 'ours4', label: 'our worker, 4 processes', kind: 'ours', processes: 4 },
] as const;

/** A setup's key. */
export type SetupKey = (typeof SETUPS)[number]['key'];

/** What the section measured. */
export interface RedisBenchMeasured {
  /** The runs of each setup, one per round. */
  readonly results: ReadonlyMap<SetupKey, readonly RunResult[]>;
  readonly fairness: FairnessResult;
  /** What parking a disabled channel's backlog cost per alert. */
  readonly parking: ParkingCost;
  readonly roundTrips: number;
  /** Our worker's commands by part, from the MONITOR sample run. */
  readonly parts: PartsPerDelivery;
  readonly plan: RedisBenchPlan;
  /** The job the floor's producer copies. */
  readonly template: JobTemplate;
  /** Where the processes ran. */
  readonly pinning: Pinning;
}

/** Sums a setup's rounds into its figures (Redis costs over the masters). */
export function figuresOf(label: string, runs: readonly RunResult[]): SetupFigures {
  return {
    label,
    deliveries: runs.reduce((sum, run) => sum + run.jobs, 0),
    enqueue: runs.reduce((sum, run) => addCosts(sum, run.enqueue), NO_COST),
    delivery: runs.reduce((sum, run) => addCosts(sum, run.delivery), NO_COST),
    workerCpu: runs.map(workerCpu),
    redisCpu: runs.map(redisCpu),
    rates: runs.map((run) => run.jobs / run.seconds),
  };
}

const commands = (run: RunResult) => (run.enqueue.commands + run.delivery.commands) / run.jobs;
const redisCpu = (run: RunResult) => (run.enqueue.cpuSeconds + run.delivery.cpuSeconds) / run.jobs;
const workerCpu = (run: RunResult) => run.workerCpuSeconds / run.jobs;

function ratioTarget(name: string, value: number, limit: number, atMost = true): TargetResult {
  return {
    section: 'redis',
    target: name,
    value: formatRatio(value),
    limit: `${atMost ? '<=' : '>='} ${limit.toFixed(2)}x`,
    pass: atMost ? value <= limit : value >= limit,
  };
}

/** The section's targets and Markdown. */
export function buildRedisQueueResult(measured: RedisBenchMeasured): SectionResult {
  const { results, fairness, parking, roundTrips, parts, plan, template, pinning } = measured;
  const runs = (key: SetupKey) => results.get(key) ?? [];
  /** Median over rounds of a setup's figure / the reference's, both from the same round. */
  const paired = (key: SetupKey, reference: SetupKey, figure: (run: RunResult) => number) =>
    median(runs(key).map((run, round) => figure(run) / figure(runs(reference)[round]!)));
  const figures = SETUPS.map((s) => figuresOf(s.label, runs(s.key)));
  const figuresOfKey = (key: SetupKey) => figures[SETUPS.findIndex((s) => s.key === key)]!;
  const fairRatio = fairness.ran
    ? median(fairness.with.map((rate, round) => rate / fairness.without[round]!))
    : Number.NaN;
  const fairCpuRatio = fairness.ran
    ? median(fairness.cpuWith.map((cpu, round) => fairness.cpuWithout[round]! / cpu))
    : Number.NaN;
  const fairName = `healthy channels' deliveries/s with one hanging channel / without (${HEALTHY_CHANNELS} healthy, maxInFlightPerChannel ${MAX_IN_FLIGHT_PER_CHANNEL})`;
  const targets: TargetResult[] = [
    ratioTarget(
      'Redis commands per delivery, our queue + 1 worker / BullMQ floor (same job options, empty processor)',
      paired('ours1', 'floor', commands),
      1.3,
    ),
    ratioTarget(
      'Redis CPU per delivery, our queue + 1 worker / BullMQ floor',
      paired('ours1', 'floor', redisCpu),
      1.3,
    ),
    {
      section: 'redis',
      target:
        'Redis CPU per delivery, plain BullMQ worker calling sender.deliver / BullMQ floor (for information: no command of ours, the same commands as the floor; the pace of the jobs)',
      value: formatRatio(paired('plain', 'floor', redisCpu)),
      limit: 'reported',
      pass: true,
    },
    {
      section: 'redis',
      target:
        'Redis CPU per delivery, our queue + 1 worker / BullMQ floor at our pace (empty processor that waits as long as our jobs take; the measure proposed for the row above)',
      value: formatRatio(paired('ours1', 'pacedFloor', redisCpu)),
      limit: 'reported',
      pass: true,
    },
    {
      section: 'redis',
      target:
        'Redis CPU per delivery, our queue + 1 worker / plain BullMQ worker calling sender.deliver (for information: what our commands add at a like pace)',
      value: formatRatio(paired('ours1', 'plain', redisCpu)),
      limit: 'reported',
      pass: true,
    },
    ratioTarget(
      'worker CPU per delivery, 2 worker processes / 1',
      paired('ours2', 'ours1', workerCpu),
      1.25,
    ),
    ratioTarget(
      'worker CPU per delivery, 4 worker processes / 1',
      paired('ours4', 'ours1', workerCpu),
      1.25,
    ),
    {
      section: 'redis',
      target:
        'Redis commands per delivery, our worker in 2 / in 4 processes against 1 (for information: the work per delivery, which no CPU contention of the machine moves)',
      value: `${formatRatio(paired('ours2', 'ours1', commands))} / ${formatRatio(paired('ours4', 'ours1', commands))}`,
      limit: 'reported',
      pass: true,
    },
    ratioTarget(
      'worker CPU per delivery, our worker / plain BullMQ worker calling sender.deliver',
      paired('ours1', 'plain', workerCpu),
      1.3,
    ),
    fairness.ran
      ? ratioTarget(fairName, fairRatio, 0.9, false)
      : {
          section: 'redis',
          target: fairName,
          value: fairness.reason,
          limit: '>= 0.90x',
          pass: false,
        },
    {
      section: 'redis',
      target:
        'worker CPU per healthy delivery, without the hanging channel / with it (for information: the healthy rate a worker reaches where its CPU is the limit, as at concurrency 50 here)',
      value: fairness.ran ? formatRatio(fairCpuRatio) : fairness.reason,
      limit: 'reported',
      pass: true,
    },
    {
      section: 'redis',
      target: `parking a disabled channel's backlog of ${PARKING_BACKLOG.toLocaleString('en')} alerts, per parked alert: Redis commands / Redis CPU / worker CPU (for information)`,
      value: `${parking.commands.toFixed(1)} / ${micros(parking.redisCpuSeconds)} / ${micros(parking.workerCpuSeconds)}`,
      limit: 'reported',
      pass: true,
    },
    {
      section: 'redis',
      target: 'Redis round trips per delivery (for information)',
      value: roundTrips.toFixed(1),
      limit: 'reported',
      pass: true,
    },
  ];
  const notes = [
    `Each setup delivers ${plan.deliveries.toLocaleString('en')} alerts per round (${plan.rounds} round(s), the order reversed every other round), spread over ${plan.channels} channels to one node:http receiver on 127.0.0.1; every worker process runs at concurrency ${plan.concurrency}. Redis: a private redis-server without persistence; ${describePinning(pinning)}. The 6 worker processes (4 for our worker, 1 plain, 1 floor) stay up for the whole section; each first delivered ${plan.warmUp.toLocaleString('en')} alerts to warm up, and the processes of our 1- and 2-worker runs rotate from round to round.`,
    "A run enqueues into a queue of its own, pauses it, starts the workers, and resumes (so starting them is not measured); it ends when the queue has no job left (waiting, active, delayed or prioritized). Redis figures: `INFO commandstats` calls (script-internal ones included; the bench's own INFO and polls left out) and `INFO cpu` (user + system), over the enqueue and the delivery phase. Worker CPU: the worker processes' `process.cpuUsage()` over the delivery phase. Commands are summed over the rounds; CPU figures are medians of the rounds; the targets are medians of per-round ratios. Deliveries/s depend on what else the machine runs and are printed for the record only.",
    `The floor's producer is a plain BullMQ \`Queue\` adding jobs with the name, data and options of a job our queue stored, read back from Redis (name \`${template.name}\`, options \`${JSON.stringify(template.opts)}\`, a job id of 40 hex digits as ours); its worker is a plain BullMQ \`Worker\` with an empty processor. The plain worker's processor only calls \`sender.deliver\` (memory channel state).`,
    'Tracing off (zero cost with no tracer provider) is measured for the worker in instructions, by section `tracing-off` (src/tracing-off-bench.ts).',
    `The plain worker sends Redis the same commands as the floor (${formatRatio(paired('plain', 'floor', commands))} of its count), yet costs redis-server ${formatRatio(paired('plain', 'floor', redisCpu))} of its CPU per delivery: commands that arrive together share one read and one write, so Redis CPU per command grows as the pace of the jobs falls. Part of the Redis CPU row (ours / floor) is that pace, not our commands.`,
    `The paced floor is the floor's worker (the same commands, an empty processor) whose processor first waits for the time one of our 1-process worker's jobs was in flight beyond one of the floor's (each from its latest run: concurrency / deliveries per second), so that jobs reach Redis at about our pace: ${formatRatio(paired('pacedFloor', 'floor', redisCpu))} of the floor's Redis CPU per delivery at ${formatRatio(paired('pacedFloor', 'ours1', (run) => run.seconds))} of our run's time. Against it, the Redis CPU row compares commands with commands.`,
  ];
  const fairText = fairness.ran
    ? ` Each run: ${fairness.healthyDeliveries.toLocaleString('en')} healthy alerts, and in the runs with it ${fairness.hangingJobs.toLocaleString('en')} for the hanging channel, interleaved; its endpoint got ${fairness.hangingRequests} request(s) in all.`
    : '';
  const markdown = [
    costTable(figures),
    notes.map((n) => `- ${n}`).join('\n'),
    '**Where the Redis cost goes**: calls per delivery by command, our queue + 1 worker against the floor (enqueue and delivery phases together).',
    commandBreakdown(figuresOfKey('ours1'), figuresOfKey('floor')),
    `**By part of the work**: our queue + 1 worker, commands and client round trips per delivery by the keys they touch (a script's own call by its first key, each command it runs by its own), over a separate ${plan.sample}-delivery run under MONITOR (delivery phase only: the enqueue's commands are BullMQ's, the same as the floor's). BullMQ's part is what the floor pays too; the others are ours.`,
    partsTable(parts),
    '**Projection** from the costs above (method in bench/README.md): deliveries/s that one core of redis-server, or one core of worker processes, could sustain at these costs.',
    projectionTable(figures),
    `**Fairness**: ${HEALTHY_CHANNELS} healthy channels and one whose endpoint never answers (the worker's sender gives up after ${FAIRNESS_SENDER_TIMEOUT_MS.toLocaleString('en')} ms; \`maxInFlightPerChannel: ${MAX_IN_FLIGHT_PER_CHANNEL}\`), one worker process at concurrency ${plan.concurrency}; healthy deliveries/s from resume until the receiver has every healthy alert, with and without the hanging channel's alerts, alternating.${fairText}`,
    fairnessTable(fairness, fairRatio, fairCpuRatio),
    `Round trips: a separate ${plan.sample}-delivery run of our worker under MONITOR: client commands from resume to the last job (a MULTI…EXEC block counted once, script-internal commands not counted).`,
  ];
  return {
    title: 'Redis delivery queue: cost per delivery',
    markdown: markdown.join('\n\n'),
    targets,
  };
}
