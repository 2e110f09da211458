/**
 * Lists a workspace's API keys with @cspwatch/client.
 *
 *   pnpm start [--q <text>] [--limit <1-200>]
 */
import { parseArgs } from 'node:util';
import { isCspwatchError } from '@cspwatch/client';
import { listApiKeys } from './list-api-keys';

try {
  // `pnpm start -- --q x` passes the `--` through; skip it.
  const args = process.argv.slice(2);
  const { values } = parseArgs({
    args: args[0] === '--' ? args.slice(1) : args,
    options: { q: { type: 'string' }, limit: { type: 'string' } },
  });
  await listApiKeys({
    env: process.env,
    print: (line) => console.log(line),
    ...(values.q === undefined ? {} : { q: values.q }),
    ...(values.limit === undefined ? {} : { limit: Number(values.limit) }),
  });
} catch (error) {
  // Client errors carry a code and a message that never contains the token.
  const code = isCspwatchError(error) ? ` [${error.code}]` : '';
  console.error(`list-api-keys failed${code}: ${error instanceof Error ? error.message : error}`);
  process.exitCode = 1;
}
