/**
 * One delivery worker process of the Redis queue bench (built `@cspwatch/redis/queue`).
 * Environment: REDIS_URL, QUEUE_NAME, CHANNEL (JSON { id, url, secret }), CONCURRENCY.
 */
import { createDeliveryWorker } from '@cspwatch/redis/queue';

const channel = JSON.parse(process.env.CHANNEL ?? '{}') as {
  id: string;
  url: string;
  secret: string;
};
const worker = createDeliveryWorker({
  connection: process.env.REDIS_URL ?? '',
  queueName: process.env.QUEUE_NAME ?? '',
  channels: (id) => (id === channel.id ? channel : undefined),
  concurrency: Number(process.env.CONCURRENCY ?? 50),
  sender: { dangerouslyAllowLoopback: true },
});
await worker.waitUntilReady();
process.send?.('ready');
// The bench asks for this process's CPU time before and after a timed run.
process.on('message', (message) => {
  if (message === 'cpu') {
    const { user, system } = process.cpuUsage();
    process.send?.({ cpuMicros: user + system });
  }
});
process.on('SIGTERM', () => {
  worker.close().finally(() => process.exit(0));
});
