#!/usr/bin/env node
/**
 * `cspwatch-mock`: starts the cspwatch mock service on a port and prints where it is and
 * how to authenticate. Stops cleanly on Ctrl-C (SIGINT) or SIGTERM.
 *
 * @packageDocumentation
 */
import { parseArgs } from 'node:util';
import { parseCliOptions, USAGE } from './cli-options';
import { isMockServerError } from './errors';
import { type MockServer, startMockServer } from './node-server';

async function main(argv: string[]): Promise<number> {
  const parsed = parseCliOptions(argv, parseArgs);
  if (parsed.kind === 'help') {
    process.stdout.write(USAGE);
    return 0;
  }
  if (parsed.kind === 'error') {
    process.stderr.write(`cspwatch-mock: ${parsed.message}\n\n${USAGE}`);
    return 2;
  }
  let server: MockServer;
  try {
    server = await startMockServer(parsed.options);
  } catch (error) {
    // A flag's value out of range is a usage error (exit 2), like an unknown flag.
    if (!isMockServerError(error) || error.code !== 'invalid_options') throw error;
    process.stderr.write(
      `cspwatch-mock: ${error.message}\nRun cspwatch-mock --help for the flags.\n`,
    );
    return 2;
  }
  const { tokens, workspaceIds } = server;
  process.stdout.write(
    [
      `cspwatch mock server listening on ${server.url}`,
      '',
      'Workspaces:',
      `  main                ${workspaceIds.main}`,
      `  noApiKeysFeature    ${workspaceIds.noApiKeysFeature}`,
      '',
      'Bearer tokens (mock fixtures, not secrets):',
      `  admin               ${tokens.admin}`,
      `  member              ${tokens.member}`,
      `  noApiKeysFeature    ${tokens.noApiKeysFeature}`,
      `  apiKey              ${tokens.apiKey}`,
      '',
      'Try:',
      `  curl -H "Authorization: Bearer ${tokens.admin}" ${server.url}/v1/workspaces/${workspaceIds.main}/api-keys?limit=2`,
      '',
      'Press Ctrl-C to stop.',
      '',
    ].join('\n'),
  );
  await new Promise<void>((resolve) => {
    const stop = (): void => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolve();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
  await server.close();
  process.stdout.write('cspwatch mock server stopped.\n');
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    const message = error instanceof Error ? error.message : String(error);
    process.stderr.write(`cspwatch-mock: ${message}\n`);
    process.exitCode = 1;
  },
);
