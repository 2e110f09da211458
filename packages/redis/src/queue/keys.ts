/**
 * The Redis keys of one delivery queue, in one place. `{channelId}` is a hash tag, so a
 * channel's keys share a cluster slot; an alert's history is tagged by its id.
 */
import { createHash } from 'node:crypto';
import { type ChannelStateKeys, channelStateKeys } from '../stores/channel-state-keys';

/** Key names of a queue with `prefix` and `queueName`. */
export interface QueueKeys extends ChannelStateKeys {
  /** Prefix given to the channel state store (`failures` and `disabled` are its keys). */
  readonly channelStatePrefix: string;
  /** Per-channel history stream. */
  history(channelId: string): string;
  /** Per-channel sorted set of parked entry ids (score: parked time). */
  parked(channelId: string): string;
  /** Per-channel hash: parked entry id → the parked alert as JSON. */
  parkedData(channelId: string): string;
  /** Per-job claim of the parking of a job BullMQ failed for good (one parker at a time). */
  parkingClaim(channelId: string, jobId: string): string;
  /** Per-channel lock of the release of its parked alerts under way (one at a time). */
  releasing(channelId: string): string;
  /** The channels with parked alerts (score: their oldest parked time), for expiry and counts. */
  readonly parkedChannels: string;
  /**
   * Per-channel list of the in-flight slots held, each `<lease end ms>:<job id>`, and one `~`
   * that keeps the list (so its expiry) while slots come and go; see in-flight.ts.
   */
  inFlight(channelId: string): string;
  /** Per-channel sorted set of the jobs waiting for an in-flight slot (score: when they began). */
  waitingRoom(channelId: string): string;
  /** Per-alert string: one line `<entry id> <entry JSON>` per history entry, every channel's. */
  alertHistory(alertId: string): string;
}

/** Builds the keys of a queue. */
export function queueKeys(prefix: string, queueName: string): QueueKeys {
  const base = `${prefix}:${queueName}`;
  const channelStatePrefix = `${prefix}:channel`;
  return {
    channelStatePrefix,
    ...channelStateKeys(channelStatePrefix),
    history: (id) => `${base}:history:{${id}}`,
    parked: (id) => `${base}:parked:{${id}}`,
    parkedData: (id) => `${base}:parked-data:{${id}}`,
    parkingClaim: (id, jobId) => `${base}:parking:{${id}}:${jobId}`,
    releasing: (id) => `${base}:releasing:{${id}}`,
    parkedChannels: `${base}:parked-channels`,
    inFlight: (id) => `${base}:slots:{${id}}`,
    waitingRoom: (id) => `${base}:waiting-for-slot:{${id}}`,
    alertHistory: (id) => `${base}:alert-log:{${id}}`,
  };
}

/**
 * The BullMQ job id of an alert's first enqueue: the same alert given twice to the same
 * channel while it is pending is one job. (BullMQ ids may not contain `:`, hence the hash.)
 */
export function deliveryJobId(channelId: string, alertId: string): string {
  return createHash('sha256').update(`${channelId}\0${alertId}`).digest('hex').slice(0, 40);
}
