/**
 * Lists a workspace's API keys with @cspwatch/client.
 *
 *   pnpm start [--q <text>] [--limit <1-200>]
 */
import { isCspwatchError } from '@cspwatch/client';
import { parseScriptArgs } from '@cspwatch/example-script-connection/script-args';
import { listApiKeys } from './list-api-keys';

const USAGE =
  "Usage: pnpm start [--q <text>] [--limit <1-200>]\n\nLists a workspace's API keys across cursor pages.\n  --q <text>       only keys whose name contains <text>\n  --limit <n>      keys per page (1-200, default 50)\n  -h, --help       show this help";

const values = parseScriptArgs(
  process.argv.slice(2),
  { q: { type: 'string' }, limit: { type: 'string' } },
  USAGE,
);

try {
  if (values) {
    await listApiKeys({
      env: process.env,
      print: (line) => console.log(line),
      ...(values.q === undefined ? {} : { q: values.q }),
      ...(values.limit === undefined ? {} : { limit: Number(values.limit) }),
    });
  }
} catch (error) {
  // Client errors carry a code and a message that never contains the token.
  const code = isCspwatchError(error) ? ` [${error.code}]` : '';
  console.error(`list-api-keys failed${code}: ${error instanceof Error ? error.message : error}`);
  process.exitCode = 1;
}
