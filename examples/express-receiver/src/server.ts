/**
 * Node entry: `CSPWATCH_WEBHOOK_SECRET=… PORT=3000 pnpm start`.
 */
import type { AddressInfo } from 'node:net';
import { createApp } from './app';
import { readConfig } from './config';

let config: ReturnType<typeof readConfig>;
try {
  config = readConfig(process.env);
} catch (error) {
  console.error((error as Error).message);
  process.exit(1);
}

const server = createApp({ secret: config.secret }).listen(config.port, config.host, (error) => {
  if (error) {
    console.error(`Could not listen on ${config.host}:${config.port}: ${error.message}`);
    process.exit(1);
  }
  const { port } = server.address() as AddressInfo;
  console.log(`Listening on http://${config.host}:${port}/webhooks/cspwatch`);
});
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => server.close());
}
