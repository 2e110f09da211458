/**
 * bull-board over the delivery queue of `@cspwatch/redis/queue`: every shard's BullMQ queue,
 * mounted read-only in an Express app. Channel states, parked alerts and one alert's attempts
 * are not jobs, so bull-board cannot show them: read them with the queue's own calls
 * (`getChannelState`, `countParked`, `getHistory`, `getAlertHistory`).
 */
import { createBullBoard } from '@bull-board/api';
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import { ExpressAdapter } from '@bull-board/express';
import { type DeliveryQueueBaseOptions, deliveryQueueShards } from '@cspwatch/redis/queue';
import { Queue } from 'bullmq';
import express, { type Express } from 'express';
import type { Cluster, Redis } from 'ioredis';

/** What {@link createDashboard} needs. */
export interface DashboardOptions {
  /** An ioredis connection (or Cluster) to the queue's Redis; the caller closes it. */
  readonly redis: Redis | Cluster;
  /** The options the delivery queue was created with (`queueName`, `prefix`, `shards` are read). */
  readonly queue: Pick<DeliveryQueueBaseOptions, 'queueName' | 'prefix' | 'shards'>;
  /** Where bull-board is mounted. @default '/queues' */
  readonly basePath?: string;
}

/** An Express app serving bull-board, and the BullMQ queues it opened. */
export interface Dashboard {
  readonly app: Express;
  /** Closes the BullMQ queues (not the Redis connection). */
  close(): Promise<void>;
}

/**
 * Builds the dashboard. Read-only: retrying or removing a job from the UI would go around the
 * queue's own rules (a parked alert is released with `releaseParked`, not retried by hand).
 */
export function createDashboard({
  redis,
  queue,
  basePath = '/queues',
}: DashboardOptions): Dashboard {
  const shards = deliveryQueueShards(queue);
  const queues = shards.map(({ name, prefix }) => new Queue(name, { connection: redis, prefix }));
  const serverAdapter = new ExpressAdapter().setBasePath(basePath);
  createBullBoard({
    queues: queues.map(
      (bull, index) =>
        new BullMQAdapter(bull, {
          readOnlyMode: true,
          prefix: shards.length > 1 ? `shard${index + 1}-` : '',
          displayName:
            shards.length > 1 ? `${bull.name}, shard ${index + 1} of ${shards.length}` : bull.name,
          description: 'cspwatch alert deliveries (one job per alert and channel)',
        }),
    ),
    serverAdapter,
    options: { uiConfig: { boardTitle: 'cspwatch deliveries' } },
  });
  const app = express();
  app.use(basePath, serverAdapter.getRouter());
  return {
    app,
    async close() {
      await Promise.all(queues.map((bull) => bull.close()));
    },
  };
}
