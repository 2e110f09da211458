/**
 * How the Redis queue bench fills its queues and finds them again: enqueue through our queue
 * or a plain BullMQ `Queue`, read back the job our queue stores (the floor copies it), and
 * find the BullMQ queues a prefix holds. Our queue decides its own BullMQ key layout
 * (shards, hash tags); the bench reads it from Redis instead of repeating it.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { createDeliveryQueue } from '@cspwatch/redis/queue';
import type { CspwatchEvent } from '@cspwatch/webhooks';
import { createSampleAlert } from '@cspwatch/webhooks/testing';
import { type JobsOptions, Queue } from 'bullmq';
import type { RedisDeployment } from './redis-deployment.js';
import type { BenchChannel, BenchConnection } from './redis-worker-protocol.js';

/** A job of a plain BullMQ producer: the name, data and options of a job our queue stored. */
export interface JobTemplate {
  readonly name: string;
  readonly data: Record<string, unknown>;
  readonly opts: JobsOptions;
}

/** One job to enqueue. */
export interface BenchJob {
  readonly channelId: string;
  readonly alert: CspwatchEvent;
}

/** What a run delivers: channels of one receiver, a sample alert, and jobs over both. */
export interface BenchWorkload {
  readonly channels: readonly BenchChannel[];
  readonly alert: CspwatchEvent;
  /** `count` jobs, round-robin over the channels, each alert with an id of its own. */
  jobs(count: number): BenchJob[];
}

/** `channelCount` channels, all delivering to `receiverUrl` with `secret`. */
export function benchWorkload(
  receiverUrl: string,
  channelCount: number,
  secret: string,
): BenchWorkload {
  const channels = Array.from({ length: channelCount }, (_, i) => ({
    id: `channel-${i}`,
    url: receiverUrl,
    secret,
  }));
  const alert = createSampleAlert();
  const jobs = (count: number) =>
    Array.from({ length: count }, (_, i) => ({
      channelId: channels[i % channelCount]!.id,
      alert: { ...alert, id: randomUUID() },
    }));
  return { channels, alert, jobs };
}

/** Where a bench queue lives. */
export interface QueuePlace {
  readonly connection: BenchConnection;
  /** Our queue's `prefix` (for a plain queue, the BullMQ prefix itself). */
  readonly prefix: string;
  readonly queueName: string;
  /** Our queue's `shards`; its default when absent. */
  readonly shards?: number;
}

/** BullMQ connection options of a `redis://host:port` URL (a plain queue runs on one only). */
function connectionOf(connection: BenchConnection) {
  if (typeof connection !== 'string') {
    throw new Error('redis section: a plain BullMQ queue runs on a redis:// URL only');
  }
  const url = new URL(connection);
  return { host: url.hostname, port: Number(url.port) };
}

/**
 * Enqueues `jobs` with `createDeliveryQueue` or, given a template, with a plain BullMQ
 * `Queue` (each job a fresh 40-hex-digit id, as ours); 500 at a time, until `deadlineAt`.
 */
export async function enqueueJobs(
  place: QueuePlace,
  jobs: readonly BenchJob[],
  template: JobTemplate | undefined,
  deadlineAt: number,
): Promise<void> {
  const { connection, prefix, queueName, shards } = place;
  const ours = template
    ? undefined
    : createDeliveryQueue({
        connection,
        queueName,
        prefix,
        commandTimeoutMs: 30_000,
        ...(shards === undefined ? {} : { shards }),
      });
  const plain = template
    ? new Queue(queueName, { connection: connectionOf(connection), prefix })
    : undefined;
  const add = async ({ channelId, alert }: BenchJob) => {
    if (ours) return ours.enqueue(channelId, alert);
    const data = { ...template?.data, channelId, alert };
    const opts = { ...template?.opts, jobId: randomBytes(20).toString('hex') };
    return plain?.add(template?.name ?? 'deliver', data, opts);
  };
  try {
    for (let start = 0; start < jobs.length; start += 500) {
      if (Date.now() > deadlineAt) throw new Error('redis section: timed out enqueueing');
      await Promise.all(jobs.slice(start, start + 500).map(add));
    }
  } finally {
    await ours?.close();
    await plain?.close();
  }
}

/**
 * The BullMQ prefixes of the queues named `queueName` under `prefix` (ours may add a shard's
 * hash tag to it), found by their `meta` key on every master; at least one, or it throws.
 */
export async function findBullPrefixes(
  redis: RedisDeployment,
  place: QueuePlace,
): Promise<string[]> {
  const suffix = `:${place.queueName}:meta`;
  // `<prefix>:<queue>:meta`, or `<prefix>:<more>:<queue>:meta` (not `<prefix>0:…`).
  const ours = (key: string) =>
    key === `${place.prefix}${suffix}` || key.startsWith(`${place.prefix}:`);
  const keys = await redis.scan(`${place.prefix}*${suffix}`);
  const found = new Set(keys.filter(ours).map((key) => key.slice(0, -suffix.length)));
  if (found.size === 0) {
    throw new Error(`redis section: no BullMQ queue "${place.queueName}" under "${place.prefix}"`);
  }
  return [...found].sort();
}

/**
 * The job our queue stores for an alert (name, data, options), read back with a plain BullMQ
 * `Queue`: what the floor's producer adds, so that both carry the same options and data.
 */
export async function readJobTemplate(redis: RedisDeployment, job: BenchJob): Promise<JobTemplate> {
  const { connection } = redis;
  const place = { connection, prefix: 'bench-template', queueName: 'template' };
  const ours = createDeliveryQueue({
    connection,
    queueName: place.queueName,
    prefix: place.prefix,
  });
  let jobId: string;
  try {
    ({ jobId } = await ours.enqueue(job.channelId, job.alert));
  } finally {
    await ours.close();
  }
  for (const prefix of await findBullPrefixes(redis, place)) {
    const plain = new Queue(place.queueName, { connection: connectionOf(connection), prefix });
    try {
      const stored = await plain.getJob(jobId);
      if (!stored) continue;
      const {
        jobId: _id,
        timestamp: _at,
        ...opts
      } = stored.opts as JobsOptions & { timestamp?: number };
      return { name: stored.name, data: stored.data as Record<string, unknown>, opts };
    } finally {
      await plain.close();
    }
  }
  throw new Error(`redis section: the job our queue added (${jobId}) is not in its queue`);
}
