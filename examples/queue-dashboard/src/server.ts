/**
 * Serves the dashboard on 127.0.0.1: `REDIS_URL` (default redis://127.0.0.1:6379), `PORT`
 * (default 3100), and the queue's `CSPWATCH_QUEUE_NAME`, `CSPWATCH_QUEUE_PREFIX` and
 * `CSPWATCH_QUEUE_SHARDS` when they differ from the defaults.
 */
import { Redis } from 'ioredis';
import { createDashboard } from './dashboard';

const env = process.env;
const redis = new Redis(env.REDIS_URL ?? 'redis://127.0.0.1:6379', { maxRetriesPerRequest: null });
const shards = env.CSPWATCH_QUEUE_SHARDS;
const { app } = createDashboard({
  redis,
  queue: {
    ...(env.CSPWATCH_QUEUE_NAME ? { queueName: env.CSPWATCH_QUEUE_NAME } : {}),
    ...(env.CSPWATCH_QUEUE_PREFIX ? { prefix: env.CSPWATCH_QUEUE_PREFIX } : {}),
    ...(shards ? { shards: Number(shards) } : {}),
  },
});
const port = Number(env.PORT ?? 3100);
app.listen(port, '127.0.0.1', () => {
  console.log(`bull-board on http://127.0.0.1:${port}/queues`);
});
