/**
 * Lists a workspace's API keys with @cspwatch/client.
 *
 *   pnpm start [-- --q <text>] [-- --limit <1-200>]
 */
import { parseArgs } from 'node:util';
import { isCspwatchError } from '@cspwatch/client';
import { listApiKeys } from './list-api-keys';

const { values } = parseArgs({
  options: { q: { type: 'string' }, limit: { type: 'string' } },
});

try {
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
