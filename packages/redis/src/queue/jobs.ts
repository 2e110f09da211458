/**
 * What a delivery job carries and its options, in one home: used by `enqueue`, by a release of
 * parked alerts and by a worker that must re-queue.
 */

import { randomUUID } from 'node:crypto';
import type { CspwatchEvent } from '@cspwatch/webhooks';
import type { JobsOptions } from 'bullmq';
import type { JobTraceContext } from '../telemetry/tracing';
import { delayBeforeAttempt, type RetrySchedule } from './retry-schedule';

/** BullMQ job name of a delivery. */
export const DELIVER_JOB = 'deliver';
/** BullMQ backoff type whose delays the worker reads from the job's schedule. */
export const BACKOFF_TYPE = 'cspwatch-schedule';

/** The data of a delivery job. No secret: the worker looks the channel up when it runs. */
export interface DeliveryJobData {
  readonly channelId: string;
  readonly alert: CspwatchEvent;
  /** Attempts made before this job (an alert released from parking keeps counting). */
  readonly priorAttempts: number;
  readonly schedule: RetrySchedule;
  /** The `enqueue` span's context, when a trace was recorded (no secret: two W3C headers). */
  readonly traceContext?: JobTraceContext;
}

/** A job to add: data and options. */
export function deliveryJob(data: DeliveryJobData, jobId: string = randomUUID()) {
  const opts: JobsOptions = {
    jobId,
    attempts: data.schedule.delaysMs.length,
    backoff: { type: BACKOFF_TYPE },
    delay: delayBeforeAttempt(data.schedule, 0),
    removeOnComplete: true,
    removeOnFail: { count: 10_000 },
  };
  return { name: DELIVER_JOB, data, opts };
}

/** Where delivery jobs are added: the queue of their channel's shard. */
export interface DeliveryJobTarget {
  /** Adds a channel's delivery jobs in one round trip. */
  add(channelId: string, jobs: readonly ReturnType<typeof deliveryJob>[]): Promise<void>;
}
