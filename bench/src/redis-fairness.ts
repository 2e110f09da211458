/**
 * Fairness of the delivery worker: the healthy channels' deliveries per second with and
 * without one channel whose endpoint never answers, in alternating runs of one worker process.
 */
import { randomUUID } from 'node:crypto';
import type { CspwatchEvent } from '@cspwatch/webhooks';
import type { HangingReceiver } from './hanging-receiver.js';
import type { BenchJob } from './redis-bench-queues.js';
import { type RunSetup, runDeliveries } from './redis-delivery-run.js';
import { type WorkerProcess, WorkerRequestError } from './redis-worker-pool.js';
import type { BenchChannel } from './redis-worker-protocol.js';

/** Healthy channels next to the hanging one. */
export const HEALTHY_CHANNELS = 19;
/** The worker's sender gives up on an answer after this long, ms. */
export const FAIRNESS_SENDER_TIMEOUT_MS = 2_000;
/** The worker option under test, passed explicitly. */
export const MAX_IN_FLIGHT_PER_CHANNEL = 4;

/** What the fairness runs measured, or why they could not run. */
export type FairnessResult =
  | {
      readonly ran: true;
      /** Healthy deliveries per run (the same with and without). */
      readonly healthyDeliveries: number;
      /** Healthy deliveries/s per round, without and with the hanging channel. */
      readonly without: readonly number[];
      readonly with: readonly number[];
      /** The worker's CPU seconds per healthy delivery per round, without and with it. */
      readonly cpuWithout: readonly number[];
      readonly cpuWith: readonly number[];
      /** Jobs of the hanging channel per run, and the requests it got over all runs with it. */
      readonly hangingJobs: number;
      readonly hangingRequests: number;
    }
  | { readonly ran: false; readonly reason: string };

/** What the fairness runs need besides the shared setup. */
export interface FairnessOptions {
  readonly worker: WorkerProcess;
  readonly hanging: HangingReceiver;
  readonly concurrency: number;
  /** Alerts per channel and run. */
  readonly perChannel: number;
  readonly rounds: number;
  /** An alert to copy (each job gets a fresh id). */
  readonly alert: CspwatchEvent;
}

/** An `invalid_options` answer naming `maxInFlightPerChannel` as unknown. */
function isOptionMissing(error: unknown): boolean {
  return (
    error instanceof WorkerRequestError &&
    error.code === 'invalid_options' &&
    error.issues.some(
      (issue) => issue.path === 'maxInFlightPerChannel' && /unknown option/i.test(issue.message),
    )
  );
}

/** Measures fairness; reports "not run" when the worker does not know the option yet. */
export async function measureFairness(
  setup: RunSetup,
  options: FairnessOptions,
): Promise<FairnessResult> {
  const { worker, hanging, perChannel, alert } = options;
  const secret = 'bench-fairness-secret-0123456789';
  const healthy: BenchChannel[] = Array.from({ length: HEALTHY_CHANNELS }, (_, i) => ({
    id: `healthy-${i}`,
    url: setup.receiver.url,
    secret,
  }));
  const stuck: BenchChannel = { id: 'stuck', url: hanging.url, secret };
  const jobsFor = (channels: readonly BenchChannel[]): BenchJob[] =>
    Array.from({ length: perChannel }, () =>
      channels.map((channel) => ({ channelId: channel.id, alert: { ...alert, id: randomUUID() } })),
    ).flat();
  const runOnce = async (withStuck: boolean) => {
    const run = await runDeliveries(setup, {
      kind: 'ours',
      workers: [worker],
      concurrency: options.concurrency,
      channels: [...healthy, stuck],
      senderTimeoutMs: FAIRNESS_SENDER_TIMEOUT_MS,
      maxInFlightPerChannel: MAX_IN_FLIGHT_PER_CHANNEL,
      jobs: jobsFor(withStuck ? [...healthy, stuck] : healthy),
      receivedTarget: HEALTHY_CHANNELS * perChannel,
    });
    return {
      rate: (HEALTHY_CHANNELS * perChannel) / run.seconds,
      cpu: run.workerCpuSeconds / (HEALTHY_CHANNELS * perChannel),
    };
  };
  const without: number[] = [];
  const withStuck: number[] = [];
  const cpuWithout: number[] = [];
  const cpuWith: number[] = [];
  const measure = async (withStuckJobs: boolean) => {
    const { rate, cpu } = await runOnce(withStuckJobs);
    (withStuckJobs ? withStuck : without).push(rate);
    (withStuckJobs ? cpuWith : cpuWithout).push(cpu);
  };
  const requestsBefore = hanging.received();
  try {
    for (let round = 0; round < options.rounds; round += 1) {
      // Alternate the order, so that drift of the machine does not favour one side.
      if (round % 2 === 0) await measure(false);
      await measure(true);
      if (round % 2 === 1) await measure(false);
    }
  } catch (error) {
    if (isOptionMissing(error)) return { ran: false, reason: 'not run: option missing' };
    throw error;
  }
  return {
    ran: true,
    healthyDeliveries: HEALTHY_CHANNELS * perChannel,
    without,
    with: withStuck,
    cpuWithout,
    cpuWith,
    hangingJobs: perChannel,
    hangingRequests: hanging.received() - requestsBefore,
  };
}
