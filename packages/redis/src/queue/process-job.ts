/**
 * What a worker does with one delivery job: look the channel up, take one of its in-flight
 * slots, deliver once with the sender (which reads the channel state, re-signs with a fresh
 * timestamp and counts the attempt on the shared store), record the attempt and give the slot
 * back (on one redis-server in the same script as the count), then finish, retry (throw:
 * BullMQ applies the schedule) or park.
 */
import type {
  AttemptReport,
  ChannelAttempt,
  ChannelStateStore,
  DeliveryChannel,
  DeliveryResult,
  WebhookSender,
} from '@cspwatch/webhook-sender';
import { isWebhookSenderError } from '@cspwatch/webhook-sender';
import { DelayedError, type Job } from 'bullmq';
import { CspwatchRedisError } from '../errors';
import { indexDisabledChannel } from '../stores/channel-state-store';
import { noteAttemptOutcome } from '../telemetry/tracing';
import {
  type AttemptEnd,
  endAttemptOnOneNode,
  finishCountedAttempt,
  type UncountedEntry,
} from './attempt-end';
import {
  appendHistory,
  type ChannelProblem,
  type DeliveryAttemptEntry,
  type HistoryRetention,
  type NewHistoryEntry,
  type ParkReason,
  redactSecret,
} from './history';
import type { HeldSlot, InFlightSlots } from './in-flight';
import { DELIVER_JOB, type DeliveryJobData, deliveryJob } from './jobs';
import type { QueueKeys } from './keys';
import type { DeliveryObserver, DeliveryOutcomeEvent } from './observer';
import { parkAlert } from './parking';
import type { ScriptedRedis } from './scripts';
import type { ShardQueues } from './shard-queues';
import type { StateHandOff } from './state-hand-off';
import { createWaitingRoomParking } from './waiting-room-parking';
import type { ChannelLookup } from './worker-options';

/** What the processor needs. */
export interface JobProcessorContext {
  readonly redis: ScriptedRedis;
  readonly queues: ShardQueues;
  readonly keys: QueueKeys;
  readonly retention: HistoryRetention;
  readonly sender: WebhookSender;
  readonly store: ChannelStateStore;
  readonly channels: ChannelLookup;
  readonly slots: InFlightSlots;
  /** Hands the sender's store the slot's state and the attempt's end (see state-hand-off.ts). */
  readonly hand: StateHandOff['hand'];
  /** The worker's `onError`. */
  readonly report: (error: unknown) => void;
  /** `true` once `close()` began: a job taken after that is handed back, not run. */
  readonly closing: () => boolean;
  /** How long a job of a disabled channel's waiting room stays held while it is parked, ms. */
  readonly holdMs: number;
  /** Told each outcome (metrics); `undefined` when nobody listens. */
  readonly observer: DeliveryObserver | undefined;
}

/** Thrown to make BullMQ retry a job on its schedule; the message carries no secret. */
class AttemptFailedError extends Error {
  override readonly name = 'AttemptFailedError';
}

/** Whether a job failed with an attempt the history holds (thrown for a retry), not otherwise. */
export const isAttemptFailure = (error: unknown) => error instanceof AttemptFailedError;

/** What one attempt came to. */
type Attempt =
  | { readonly kind: 'skipped' } // the channel is disabled: nothing was sent
  | { readonly kind: 'sent'; readonly result: DeliveryResult }
  | { readonly kind: 'problem'; readonly cause: ChannelProblem; readonly error: string };

/** How long a parker holds its claim on a failed job. */
const PARKING_CLAIM_MS = 60_000;

/** Longest part of a lookup's own error message kept in the history. */
const MAX_ERROR_TEXT = 300;

function describeError(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.length > MAX_ERROR_TEXT ? `${text.slice(0, MAX_ERROR_TEXT)}…` : text;
}

/** Builds the job processor of a worker. */
export function createJobProcessor(context: JobProcessorContext) {
  const { redis, queues, keys, retention, sender, store, channels, slots, hand } = context;
  const { report, closing } = context;
  // Chosen once: on one redis-server an attempt ends in one script with its count.
  const oneNode = !redis.isCluster;
  const record = (entry: NewHistoryEntry) => appendHistory(redis, keys, entry, retention);
  const { observer } = context;
  // With no observer, `notify?.(…)` is one check: its argument is never built.
  const notify = observer
    ? (event: DeliveryOutcomeEvent) => {
        try {
          observer(event);
        } catch (error) {
          report(error);
        }
      }
    : undefined;
  /** When an attempt of this worker last got a 2xx (epoch ms), or `null`. */
  let lastSuccessAt: number | null = null;

  /** Tells the observer how a recorded attempt went. */
  function observeAttempt(job: Job<DeliveryJobData>, entry: Omit<DeliveryAttemptEntry, 'id'>) {
    const { channelId, durationMs } = entry;
    noteAttemptOutcome(entry.ok, entry.cause);
    if (entry.ok) {
      lastSuccessAt = Date.now();
      notify?.({
        outcome: 'delivered',
        channelId,
        durationMs,
        lagMs: lastSuccessAt - job.timestamp,
      });
      return;
    }
    const cause = entry.cause ?? 'network'; // (a failed attempt always has a cause)
    notify?.({ outcome: 'failed', channelId, cause, durationMs, disabledNow: entry.disabledNow });
  }

  /** Parks the job's alert; `false` when `onlyWhileDisabled` and the channel was re-enabled. */
  async function park(
    job: Job<DeliveryJobData>,
    attempts: number,
    reason: ParkReason,
    onlyWhileDisabled: boolean,
  ) {
    const { channelId, alert, traceContext } = job.data;
    const parkedAt = Date.now();
    const entryId = job.id ?? `${parkedAt}`;
    const traced = traceContext ? { traceContext } : {};
    const parked = { entryId, channelId, alert, attempts, reason, parkedAt, ...traced };
    if (!(await parkAlert(redis, keys, parked, onlyWhileDisabled))) return false;
    const at = new Date(parkedAt).toISOString();
    await record({ kind: 'parked', alertId: alert.id, channelId, attempt: attempts, at, reason });
    notify?.({ outcome: 'parked', channelId, reason });
    return true;
  }

  const { parkWaitingRoom } = createWaitingRoomParking({
    queues,
    slots,
    holdMs: context.holdMs,
    park: (job) => park(job, job.data.priorAttempts + job.attemptsMade, 'channel_disabled', true),
  });

  /** Parks for a disabled channel, or, if it was re-enabled meanwhile, queues the alert again. */
  async function parkWhileDisabled(job: Job<DeliveryJobData>, attempts: number) {
    if (await park(job, attempts, 'channel_disabled', true)) return;
    await queues.add(job.data.channelId, [deliveryJob({ ...job.data, priorAttempts: attempts })]);
  }

  /** What every attempt entry starts with: which alert, which channel, which attempt, when. */
  function entryHead(job: Job<DeliveryJobData>, attempt: number, startedAt: number) {
    const { channelId, alert } = job.data;
    const at = new Date(startedAt).toISOString();
    return { kind: 'attempt' as const, alertId: alert.id, channelId, attempt, at };
  }

  /** The entry of an attempt, but for its count; `report` is what the sender said of it. */
  function uncountedEntry(
    job: Job<DeliveryJobData>,
    attempt: number,
    startedAt: number,
    report: AttemptReport,
    secret: string,
  ): UncountedEntry {
    return {
      ...entryHead(job, attempt, startedAt),
      durationMs: report.durationMs,
      ok: report.ok,
      status: report.status,
      cause: report.cause,
      location: redactSecret(report.location, secret),
      error: redactSecret(report.error, secret),
      responseExcerpt: redactSecret(report.responseExcerpt, secret),
    };
  }

  /** The entry of an attempt stopped by a channel problem (nothing sent, nothing counted). */
  function problemEntry(
    job: Job<DeliveryJobData>,
    attempt: number,
    startedAt: number,
    problem: Extract<Attempt, { kind: 'problem' }>,
  ): UncountedEntry {
    return {
      ...entryHead(job, attempt, startedAt),
      durationMs: Date.now() - startedAt,
      ok: false,
      status: null,
      cause: problem.cause,
      location: null,
      error: problem.error,
      responseExcerpt: null,
    };
  }

  /**
   * Delivers once with the slot `held`; a channel that cannot be delivered to as configured is a
   * problem, not a failure. On one redis-server the sender's count of the attempt ends it
   * (`ended`); else the caller ends it.
   */
  async function attemptOnce(
    channel: DeliveryChannel,
    job: Job<DeliveryJobData>,
    held: HeldSlot,
    attempt: number,
    startedAt: number,
  ): Promise<{ outcome: Attempt; ended: AttemptEnd | undefined }> {
    const { channelId, alert } = job.data;
    let ended: AttemptEnd | undefined;
    const end = async (counted: ChannelAttempt) => {
      const report = counted.delivery as AttemptReport; // the sender always passes it
      const entry = uncountedEntry(job, attempt, startedAt, report, channel.secret);
      const count = { counted: true, attempt: counted } as const;
      ended = await endAttemptOnOneNode(redis, keys, retention, entry, held.slot, count);
      if (ended.recorded.disabledNow) await indexDisabledChannel(redis, keys, channelId, true);
      return ended.recorded;
    };
    let result: DeliveryResult;
    // The state was read for the job's channel id: handed only when the lookup's id is that one.
    const withdraw =
      channel.id === channelId
        ? hand(channelId, alert.id, oneNode ? { state: held.state, end } : { state: held.state })
        : undefined;
    try {
      result = await sender.deliver(channel, alert);
    } catch (error) {
      if (!isWebhookSenderError(error) || error.code !== 'invalid_channel') throw error;
      const what = error.issues.map((issue) => `${issue.path} ${issue.message}`).join('; ');
      const problem = { kind: 'problem', cause: 'invalid_channel', error: `channel ${what}` };
      return { outcome: problem as Attempt, ended };
    } finally {
      withdraw?.();
    }
    if (result.cause === 'channel_disabled') return { outcome: { kind: 'skipped' }, ended };
    if (result.rejection?.stage === 'url') {
      const error = `channel url ${result.error}`;
      return { outcome: { kind: 'problem', cause: 'invalid_channel', error }, ended };
    }
    return { outcome: { kind: 'sent', result }, ended };
  }

  /** Ends an attempt the sender did not end itself: a channel problem, or on a Redis Cluster. */
  async function endAttempt(
    job: Job<DeliveryJobData>,
    attempt: number,
    startedAt: number,
    outcome: Exclude<Attempt, { kind: 'skipped' }>,
    secret: string,
    held: HeldSlot,
  ): Promise<{ entry: Omit<DeliveryAttemptEntry, 'id'>; next: string | null }> {
    if (outcome.kind === 'problem') {
      const entry = problemEntry(job, attempt, startedAt, outcome);
      const { consecutiveFailures } = held.state;
      if (oneNode) {
        const count = { counted: false, consecutiveFailures } as const;
        return endAttemptOnOneNode(redis, keys, retention, entry, held.slot, count);
      }
      const counted = { ...entry, consecutiveFailures, disabledNow: false };
      return {
        entry: counted,
        next: await finishCountedAttempt(redis, keys, retention, counted, held.slot),
      };
    }
    const { result } = outcome;
    const entry = {
      ...uncountedEntry(job, attempt, startedAt, result, secret),
      consecutiveFailures: result.consecutiveFailures,
      disabledNow: result.disabledNow,
    };
    return { entry, next: await finishCountedAttempt(redis, keys, retention, entry, held.slot) };
  }

  /** After a recorded attempt: done, parked, or thrown for a retry on the schedule. */
  async function settle(job: Job<DeliveryJobData>, attempt: number, outcome: Attempt) {
    if (outcome.kind === 'sent' && outcome.result.ok) return;
    const last = job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
    if (outcome.kind === 'problem') {
      report(
        new CspwatchRedisError(
          'channel_unusable',
          `channel ${job.data.channelId} (${outcome.cause}): ${outcome.error}; fix it, then releaseParked(channelId)`,
        ),
      );
      if (last) {
        await park(job, attempt, outcome.cause, false);
        return;
      }
      throw new AttemptFailedError(`attempt ${attempt}: ${outcome.cause}`);
    }
    if (outcome.kind === 'skipped' || outcome.result.disabled) {
      return parkWhileDisabled(job, outcome.kind === 'skipped' ? attempt - 1 : attempt);
    }
    if (last) {
      await park(job, attempt, 'retries_exhausted', false);
      return;
    }
    const { cause, status } = outcome.result;
    throw new AttemptFailedError(
      `attempt ${attempt} failed: ${cause}${status ? ` ${status}` : ''}`,
    );
  }

  async function process(job: Job<DeliveryJobData>, token?: string): Promise<void> {
    if (job.name !== DELIVER_JOB) return;
    if (closing()) {
      // BullMQ may hand a closing worker one more job: give it back for another worker.
      await job.moveToDelayed(Date.now(), token);
      throw new DelayedError();
    }
    const { channelId, alert } = job.data;
    const attempt = job.data.priorAttempts + job.attemptsMade + 1;
    const startedAt = Date.now();
    let channel: DeliveryChannel | null | undefined;
    try {
      channel = await channels(channelId);
    } catch (error) {
      const problem = {
        kind: 'problem',
        cause: 'channel_lookup_failed',
        error: `the channels lookup threw: ${describeError(error)}`,
      } as const;
      const entry = {
        ...problemEntry(job, attempt, startedAt, problem),
        consecutiveFailures: (await store.get(channelId)).consecutiveFailures,
        disabledNow: false,
      };
      await record(entry);
      observeAttempt(job, entry);
      return settle(job, attempt, problem);
    }
    if (!channel) {
      const at = new Date().toISOString();
      const entry = {
        kind: 'discarded' as const,
        alertId: alert.id,
        channelId,
        attempt: attempt - 1,
      };
      await record({ ...entry, at, reason: null });
      notify?.({ outcome: 'discarded', channelId });
      return;
    }
    const held = await slots.acquire(job.id ?? '', channelId);
    if ('undone' in held) return slots.waitForSlot(job, token, channelId, held);
    let attempted: Awaited<ReturnType<typeof attemptOnce>>;
    try {
      attempted = await attemptOnce(channel, job, held, attempt, startedAt);
    } catch (error) {
      await slots.release(held.slot, channelId).catch(report);
      throw error;
    }
    const { outcome, ended } = attempted;
    if (outcome.kind === 'skipped') {
      await Promise.all([slots.giveBack(held.slot, channelId), parkWaitingRoom(channelId, null)]);
    } else {
      const end =
        ended ?? (await endAttempt(job, attempt, startedAt, outcome, channel.secret, held));
      observeAttempt(job, end.entry);
      if (end.entry.disabledNow) await parkWaitingRoom(channelId, end.next);
      else await slots.promoteWaiting(end.next, channelId);
    }
    return settle(job, attempt, outcome);
  }

  /** Parks a job BullMQ failed for good for another reason than delivery (a worker error, stalls). */
  async function parkFailedJob(job: Job<DeliveryJobData>): Promise<void> {
    // The 'failed' event and every worker's sweep may find the job at once: one parks (and
    // records) it. A parker that dies lets its claim run out, and a later sweep parks it.
    const claim = keys.parkingClaim(job.data.channelId, job.id ?? '');
    if ((await redis.set(claim, '1', 'PX', PARKING_CLAIM_MS, 'NX')) === null) return;
    // A sweep slower than the claim holds a job that was parked (and removed) since it read it.
    if ((await job.getState()) === 'unknown') return;
    await park(job, job.data.priorAttempts + job.attemptsMade, 'worker_error', false);
    await job.remove().catch(() => {});
  }

  return { process, parkFailedJob, lastSuccessAt: () => lastSuccessAt };
}
