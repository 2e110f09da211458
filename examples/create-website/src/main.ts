/**
 * Creates a website with @cspwatch/client and prints the headers that start report collection.
 *
 *   pnpm start [--name "My shop"] [--url https://shop.example.com]
 */
import { isCspwatchError } from '@cspwatch/client';
import { parseScriptArgs } from '@cspwatch/example-script-connection/script-args';
import { createWebsite } from './create-website';

const USAGE =
  'Usage: pnpm start [--name <name>] [--url <url>]\n\nCreates a website and prints the response headers that start CSP report collection.\n  --name <name>    the website\'s name (default "Example shop")\n  --url <url>      its http: or https: URL (default https://shop.example.com)\n  -h, --help       show this help';

const values = parseScriptArgs(
  process.argv.slice(2),
  {
    name: { type: 'string', default: 'Example shop' },
    url: { type: 'string', default: 'https://shop.example.com' },
  },
  USAGE,
);

try {
  if (values) {
    await createWebsite({
      env: process.env,
      print: (line) => console.log(line),
      name: values.name,
      url: values.url,
    });
  }
} catch (error) {
  // Client errors carry a code and a message that never contains the token.
  const code = isCspwatchError(error) ? ` [${error.code}]` : '';
  console.error(`create-website failed${code}: ${error instanceof Error ? error.message : error}`);
  process.exitCode = 1;
}
