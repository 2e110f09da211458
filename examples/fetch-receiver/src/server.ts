/**
 * Node entry: `CSPWATCH_WEBHOOK_SECRET=… PORT=3000 pnpm start` (HOST defaults to 127.0.0.1).
 */
import { serve } from '@hono/node-server';
import { createApp } from './app';

const secret = process.env.CSPWATCH_WEBHOOK_SECRET;
if (!secret) {
  console.error(
    'Set CSPWATCH_WEBHOOK_SECRET to the signing secret of your cspwatch webhook channel.',
  );
  process.exit(1);
}
const port = Number(process.env.PORT ?? 3000);
if (!Number.isInteger(port) || port < 0 || port > 65_535) {
  console.error(
    `PORT must be an integer from 0 to 65535, got ${JSON.stringify(process.env.PORT)}.`,
  );
  process.exit(1);
}

const hostname = process.env.HOST ?? '127.0.0.1';

const server = serve({ fetch: createApp({ secret }).fetch, port, hostname }, (info) => {
  console.log(`Listening on http://${hostname}:${info.port}/webhooks/cspwatch`);
});
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => server.close());
}
