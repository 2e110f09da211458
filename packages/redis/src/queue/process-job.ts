/**
 * What a worker does with one delivery job: look the channel up, check it is enabled, deliver
 * once with the sender (which re-signs with a fresh timestamp), count the outcome on the shared
 * state and record the attempt in one script, then finish, retry (throw: BullMQ applies the
 * schedule) or park.
 */
import type { WebhookSender } from '@cspwatch/webhook-sender';
import type { Job, Queue } from 'bullmq';
import { isChannelDisabled, recordAttempt } from './attempt-record';
import {
  appendHistory,
  type HistoryRetention,
  type NewHistoryEntry,
  type ParkReason,
  redactSecret,
} from './history';
import { addDeliveryJobs, DELIVER_JOB, type DeliveryJobData, deliveryJob } from './jobs';
import type { QueueKeys } from './keys';
import { parkAlert } from './parking';
import type { ScriptedRedis } from './scripts';
import type { ChannelLookup } from './worker-options';

/** What the processor needs. */
export interface JobProcessorContext {
  readonly redis: ScriptedRedis;
  readonly queue: Queue;
  readonly keys: QueueKeys;
  readonly retention: HistoryRetention;
  readonly sender: WebhookSender;
  readonly channels: ChannelLookup;
  /** Stalls (its worker died mid-job) after which a job is parked instead of run again. */
  readonly maxStalledCount: number;
}

/** Thrown to make BullMQ retry a job on its schedule; the message carries no secret. */
class AttemptFailedError extends Error {
  override readonly name = 'AttemptFailedError';
}

/** Builds the job processor of a worker. */
export function createJobProcessor(context: JobProcessorContext) {
  const { redis, queue, keys, retention, sender, channels, maxStalledCount } = context;

  const record = (entry: NewHistoryEntry) =>
    appendHistory(redis, keys.history(entry.channelId), entry, retention);

  /** Parks the job's alert; `false` when `onlyWhileDisabled` and the channel was re-enabled. */
  async function park(
    job: Job<DeliveryJobData>,
    attempts: number,
    reason: ParkReason,
    onlyWhileDisabled: boolean,
  ) {
    const { channelId, alert } = job.data;
    const parkedAt = Date.now();
    const entryId = job.id ?? `${parkedAt}`;
    const parked = { entryId, channelId, alert, attempts, reason, parkedAt };
    if (!(await parkAlert(redis, keys, parked, onlyWhileDisabled))) return false;
    const at = new Date(parkedAt).toISOString();
    await record({ kind: 'parked', alertId: alert.id, channelId, attempt: attempts, at, reason });
    return true;
  }

  /** Parks for a disabled channel, or, if it was re-enabled meanwhile, queues the alert again. */
  async function parkWhileDisabled(job: Job<DeliveryJobData>, attempts: number) {
    if (await park(job, attempts, 'channel_disabled', true)) return;
    await addDeliveryJobs(queue, [deliveryJob({ ...job.data, priorAttempts: attempts })]);
  }

  async function process(job: Job<DeliveryJobData>): Promise<void> {
    if (job.name !== DELIVER_JOB) return;
    const { channelId, alert, priorAttempts } = job.data;
    const attemptsBefore = priorAttempts + job.attemptsMade;
    // Its workers died under it too often (a job that crashes them): park, do not try again.
    if (job.stalledCounter > maxStalledCount) {
      await park(job, attemptsBefore, 'worker_error', false);
      return;
    }
    const channel = await channels(channelId);
    if (!channel) {
      const at = new Date().toISOString();
      await record({
        kind: 'discarded',
        alertId: alert.id,
        channelId,
        attempt: attemptsBefore,
        at,
        reason: null,
      });
      return;
    }
    if (await isChannelDisabled(redis, keys, channelId)) {
      return parkWhileDisabled(job, attemptsBefore);
    }
    const startedAt = Date.now();
    const result = await sender.deliver(
      { id: channelId, url: channel.url, secret: channel.secret },
      alert,
    );
    const attempt = attemptsBefore + 1;
    const disabled = await recordAttempt(
      redis,
      keys,
      {
        kind: 'attempt',
        alertId: alert.id,
        channelId,
        attempt,
        at: new Date(startedAt).toISOString(),
        durationMs: result.durationMs,
        ok: result.ok,
        status: result.status,
        cause: result.cause,
        location: redactSecret(result.location, channel.secret),
        error: redactSecret(result.error, channel.secret),
        responseExcerpt: redactSecret(result.responseExcerpt, channel.secret),
      },
      retention,
    );
    if (result.ok) return;
    if (disabled) return parkWhileDisabled(job, attempt);
    if (job.attemptsMade + 1 >= (job.opts.attempts ?? 1)) {
      await park(job, attempt, 'retries_exhausted', false);
      return;
    }
    throw new AttemptFailedError(
      `attempt ${attempt} failed: ${result.cause}${result.status ? ` ${result.status}` : ''}`,
    );
  }

  /** Parks a job BullMQ failed for good for another reason than delivery (a worker error). */
  async function parkFailedJob(job: Job<DeliveryJobData>): Promise<void> {
    await park(job, job.data.priorAttempts + job.attemptsMade, 'worker_error', false);
    await job.remove().catch(() => {});
  }

  return { process, parkFailedJob };
}
