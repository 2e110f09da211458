/**
 * Creates a website with @cspwatch/client and prints the headers that start report collection.
 *
 *   pnpm start [--name "My shop"] [--url https://shop.example.com]
 */
import { parseArgs } from 'node:util';
import { isCspwatchError } from '@cspwatch/client';
import { createWebsite } from './create-website';

try {
  // `pnpm start -- --name x` passes the `--` through; skip it.
  const args = process.argv.slice(2);
  const { values } = parseArgs({
    args: args[0] === '--' ? args.slice(1) : args,
    options: {
      name: { type: 'string', default: 'Example shop' },
      url: { type: 'string', default: 'https://shop.example.com' },
    },
  });
  await createWebsite({
    env: process.env,
    print: (line) => console.log(line),
    name: values.name,
    url: values.url,
  });
} catch (error) {
  // Client errors carry a code and a message that never contains the token.
  const code = isCspwatchError(error) ? ` [${error.code}]` : '';
  console.error(`create-website failed${code}: ${error instanceof Error ? error.message : error}`);
  process.exitCode = 1;
}
