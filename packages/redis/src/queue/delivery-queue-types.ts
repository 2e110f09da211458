/**
 * The public types of the producer and admin side of the delivery queue.
 */
import type { ChannelState } from '@cspwatch/webhook-sender';
import type { CspwatchEvent } from '@cspwatch/webhooks';
import type { Durability } from '../stores/replication';
import type { DeliveryHistoryEntry, DeliveryHistoryPage, HistoryPageOptions } from './history';

/** Jobs in each state, and alerts parked. */
export interface DeliveryQueueCounts {
  /** Ready to run. */
  readonly waiting: number;
  /** Being delivered now. */
  readonly active: number;
  /** Waiting for their next attempt (retry delay). */
  readonly delayed: number;
  /** Failed for a reason other than delivery (kept by BullMQ for inspection). */
  readonly failed: number;
  /** Parked alerts, all channels. */
  readonly parked: number;
}

/** Options of one `enqueue` call. */
export interface EnqueueOptions {
  /**
   * What to wait for before resolving: `'primary'` or `'replicated'` (see {@link Durability}).
   * @default the queue's `durability` option
   */
  readonly durability?: Durability;
}

/** What `enqueue` gives back. */
export interface EnqueueResult {
  /** The BullMQ job id (the same for the same alert and channel while it is pending). */
  readonly jobId: string;
}

/** What `enableChannel` and `releaseParked` give back. */
export interface ReleaseResult {
  /** Parked alerts this call put back in the queue (not those of a release it waited for). */
  readonly released: number;
}

/** What `expireParked` gives back. */
export interface ExpireResult {
  /** Parked alerts dropped because they waited longer than `parkedTtlMs` (each recorded). */
  readonly expired: number;
}

/** The producer and admin side of the delivery queue; see {@link createDeliveryQueue}. */
export interface DeliveryQueue {
  /**
   * Hands an alert for a channel to the queue; resolves once Redis stored it. The same alert
   * given again for the same channel while it is pending is the same job.
   * Throws `redis_unavailable` when Redis cannot store it.
   */
  enqueue(
    channelId: string,
    alert: CspwatchEvent,
    options?: EnqueueOptions,
  ): Promise<EnqueueResult>;
  /**
   * Re-enables a channel (resets its count) and releases its parked alerts. A release of the
   * channel under way (another call's, another process's) is waited for, then this one runs.
   */
  enableChannel(channelId: string): Promise<ReleaseResult>;
  /**
   * Puts a channel's parked alerts back in the queue (a fresh schedule, the same `id`); like
   * `enableChannel`, after any release of the channel under way.
   */
  releaseParked(channelId: string): Promise<ReleaseResult>;
  /** Expires alerts parked longer than `parkedTtlMs` now (workers also do it periodically). */
  expireParked(): Promise<ExpireResult>;
  /** Reads a channel's delivery history, newest first. */
  getHistory(channelId: string, options?: HistoryPageOptions): Promise<DeliveryHistoryPage>;
  /**
   * Reads every entry of one alert, on every channel, oldest first: its attempts (with their
   * outcome), and when it was parked, released, expired or discarded. Kept `history.maxAgeMs`
   * after its newest entry, whatever the channel's count bound.
   */
  getAlertHistory(alertId: string): Promise<readonly DeliveryHistoryEntry[]>;
  /** Reads a channel's shared state (failure count, disabled flag). */
  getChannelState(channelId: string): Promise<ChannelState>;
  /** Counts alerts parked for a channel. */
  countParked(channelId: string): Promise<number>;
  /** Counts jobs by state, and parked alerts. */
  getCounts(): Promise<DeliveryQueueCounts>;
  /**
   * Counts the disabled channels (one `SCARD` of the index the channel state keeps): those
   * disabled by a worker's attempts or by `disable`, not yet re-enabled.
   */
  countDisabledChannels(): Promise<number>;
  /** Closes the Redis connections. */
  close(): Promise<void>;
}
