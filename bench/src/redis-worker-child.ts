/**
 * One worker process of the Redis queue bench. It stays up for the whole section (so its code
 * stays warm) and runs one worker at a time on the queue the bench names: ours
 * (`createDeliveryWorker`, the built `@cspwatch/redis/queue`), a plain BullMQ `Worker` calling
 * `sender.deliver`, or a BullMQ `Worker` with an empty processor, which may wait (ours on one redis-server or
 * on a Redis Cluster, the others on one redis-server). Driven over IPC (see
 * src/redis-worker-protocol.ts); it exits when the bench goes away.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { createDeliveryWorker } from '@cspwatch/redis/queue';
import { createMemoryChannelStateStore, createWebhookSender } from '@cspwatch/webhook-sender';
import type { CspwatchEvent } from '@cspwatch/webhooks';
import { Worker } from 'bullmq';
import type { StartRequest, WorkerReply, WorkerRequest } from './redis-worker-protocol.js';

interface Running {
  close(): Promise<void>;
  completed(): number;
}

let running: Running | undefined;

function senderOptions(request: StartRequest) {
  const timeout = request.senderTimeoutMs;
  return {
    dangerouslyAllowLoopback: true,
    ...(timeout === undefined ? {} : { timeoutMs: timeout }),
  };
}

async function start(request: StartRequest): Promise<Running> {
  const channels = new Map(request.channels.map((channel) => [channel.id, channel]));
  if (request.kind === 'ours') {
    // Spread from a record, so that an option the built package does not know yet reaches its
    // validation (which answers `invalid_options`) instead of failing to compile here.
    const extra: Record<string, number> = {};
    if (request.maxInFlightPerChannel !== undefined) {
      extra.maxInFlightPerChannel = request.maxInFlightPerChannel;
    }
    const create = request.module
      ? ((await import(request.module)) as { createDeliveryWorker: typeof createDeliveryWorker })
          .createDeliveryWorker
      : createDeliveryWorker;
    const worker = create({
      connection: request.connection,
      queueName: request.queueName,
      prefix: request.prefix,
      channels: (id) => channels.get(id),
      concurrency: request.concurrency,
      sender: senderOptions(request),
      ...(request.shards === undefined ? {} : { shards: request.shards }),
      ...extra,
    });
    await worker.waitUntilReady();
    return { close: () => worker.close(), completed: () => 0 };
  }
  const sender =
    request.kind === 'plain'
      ? createWebhookSender({ ...senderOptions(request), store: createMemoryChannelStateStore() })
      : undefined;
  if (typeof request.connection !== 'string') {
    throw new Error(`worker kind "${request.kind}" runs on a redis:// URL only`);
  }
  const url = new URL(request.connection);
  const waitMs = request.processorWaitMs ?? 0;
  const worker = new Worker<{ channelId: string; alert: CspwatchEvent }>(
    request.queueName,
    async (job) => {
      if (waitMs > 0) await sleep(waitMs);
      if (!sender) return;
      const channel = channels.get(job.data.channelId);
      if (!channel) throw new Error(`unknown channel ${job.data.channelId}`);
      const result = await sender.deliver(channel, job.data.alert);
      if (!result.ok) throw new Error(`delivery failed: ${result.cause}`);
    },
    {
      connection: { host: url.hostname, port: Number(url.port), maxRetriesPerRequest: null },
      prefix: request.prefix,
      concurrency: request.concurrency,
      // The jobs' backoff type is ours; only a failed job would ask for it.
      settings: { backoffStrategy: () => 0 },
    },
  );
  let completed = 0;
  worker.on('completed', () => {
    completed += 1;
  });
  worker.on('error', () => {}); // connection errors: BullMQ reconnects; the bench's deadline reports a stuck run
  await worker.waitUntilReady();
  return {
    async close() {
      await worker.close();
      await sender?.close();
    },
    completed: () => completed,
  };
}

/** Runs a request; returns the jobs completed by the worker it concerns. */
async function handle(request: WorkerRequest): Promise<number> {
  if (request.type === 'start') {
    if (running) throw new Error('a worker is already running in this process');
    running = await start(request);
  }
  const current = running;
  if (request.type === 'stop') {
    running = undefined;
    await current?.close();
  }
  return current?.completed() ?? 0;
}

process.on('message', (message: WorkerRequest) => {
  handle(message).then(
    (completed) => {
      const { user, system } = process.cpuUsage();
      const reply: WorkerReply = { id: message.id, ok: true, cpuMicros: user + system, completed };
      process.send?.(reply);
    },
    (error: unknown) => {
      const { code, issues } = (error ?? {}) as { code?: unknown; issues?: unknown };
      const reply: WorkerReply = {
        id: message.id,
        ok: false,
        message: error instanceof Error ? error.message : String(error),
        ...(typeof code === 'string' ? { code } : {}),
        ...(Array.isArray(issues) ? { issues } : {}),
      };
      process.send?.(reply);
    },
  );
});
// The bench went away (crashed or killed): nothing else would stop this process.
process.on('disconnect', () => process.exit(0));
process.send?.('ready');
