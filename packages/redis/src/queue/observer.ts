/**
 * The seam a worker reports its outcomes through: metrics (`@cspwatch/redis/metrics`) or any
 * other sink attach here, so the queue itself never loads them. Off (no observer), each
 * outcome costs one `undefined` check.
 */
import type { DeliveryFailureCause } from '@cspwatch/webhook-sender';
import type { ChannelProblem, ParkReason } from './history';

/** One outcome of a worker, as its {@link DeliveryObserver} receives it. */
export type DeliveryOutcomeEvent =
  | {
      /** An attempt got a 2xx. */
      readonly outcome: 'delivered';
      /** The job's channel. */
      readonly channelId: string;
      /** Time the attempt took, in ms. */
      readonly durationMs: number;
      /** Time from the job's enqueue (or its release from parking) to this 2xx, in ms. */
      readonly lagMs: number;
    }
  | {
      /** An attempt failed (it is retried or parked: that is another event). */
      readonly outcome: 'failed';
      /** The job's channel. */
      readonly channelId: string;
      /** The sender's failure cause, or the channel problem that stopped the attempt. */
      readonly cause: DeliveryFailureCause | ChannelProblem;
      /** Time the attempt took, in ms. */
      readonly durationMs: number;
      /** `true` for the one failure that disabled the channel. */
      readonly disabledNow: boolean;
    }
  | {
      /** An alert was parked. */
      readonly outcome: 'parked';
      /** The job's channel. */
      readonly channelId: string;
      /** Why it was parked. */
      readonly reason: ParkReason;
    }
  | {
      /** An alert was dropped: its channel no longer exists. */
      readonly outcome: 'discarded';
      /** The job's channel. */
      readonly channelId: string;
    };

/**
 * Called synchronously by the worker at each outcome; keep it cheap (count, do not call out).
 * An observer that throws is reported to `onError` and the delivery goes on.
 */
export type DeliveryObserver = (event: DeliveryOutcomeEvent) => void;
