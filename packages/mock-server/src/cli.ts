#!/usr/bin/env node
/**
 * `cspwatch-mock`: starts the cspwatch mock service on a port and prints where it is and
 * how to authenticate. Stops cleanly on Ctrl-C (SIGINT) or SIGTERM. `cspwatch-mock trigger`
 * sends one signed alert to a local handler.
 *
 * @packageDocumentation
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { redactUrls } from '@cspwatch/contract';
import {
  nodeCliIo,
  runSendCommand,
  USAGE_EXIT_CODE,
  usageErrorLine,
} from '@cspwatch/webhook-sender/cli';
import {
  nameFlags,
  paint,
  parseCliOptions,
  requestLine,
  startWarnings,
  USAGE,
} from './cli/options';
import { TRIGGER_COMMAND } from './cli/trigger-command';
import { isMockServerError } from './errors';
import { type MockServer, startMockServer } from './transports/node-server';
import { VERSION } from './version';

/** The environment variable an operator sets the control token in (then it is not printed). */
const CONTROL_TOKEN_ENV = 'CSPWATCH_MOCK_CONTROL_TOKEN';

/** Colour on a terminal, unless NO_COLOR is set. */
const COLOR = process.stdout.isTTY === true && !process.env.NO_COLOR;

/**
 * Writes what the CLI prints through the URL rule: no userinfo, no query value. Only the start
 * banner bypasses it (its URLs are this server's own, and its curl line must stay runnable).
 */
const print = (stream: NodeJS.WriteStream, text: string): void => {
  stream.write(redactUrls(text));
};

/** Prints a usage error of the server command (one line) and returns its exit status. */
const usageError = (message: string): number => {
  print(process.stderr, usageErrorLine('cspwatch-mock', message));
  return USAGE_EXIT_CODE;
};

/** Listen errors that mean `--host` names no address of this machine. */
const BAD_HOST_CODES = new Set(['ENOTFOUND', 'EAI_AGAIN', 'EADDRNOTAVAIL', 'EAI_FAIL']);

/** The seeded workspace ids and bearer tokens, and a curl line to try. */
function fixtureLines({ url, tokens, workspaceIds }: MockServer): string[] {
  return [
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
    `  curl -H 'Authorization: Bearer ${tokens.admin}' '${url}/v1/workspaces/${workspaceIds.main}/api-keys?limit=2'`,
  ];
}

async function main(argv: string[]): Promise<number> {
  if (argv[0] === 'trigger') return runSendCommand(argv.slice(1), nodeCliIo(), TRIGGER_COMMAND);
  const first = argv[0];
  if (first !== undefined && !first.startsWith('-')) {
    // A mistyped secret or URL in first place is not echoed.
    const shown = /^[a-z][a-z-]{0,30}$/.test(first) ? `"${first}"` : '(not shown)';
    return usageError(
      `unknown command ${shown}; the one command is trigger (no command starts the server)`,
    );
  }
  const parsed = parseCliOptions(argv, parseArgs);
  if (parsed.kind === 'help') {
    print(process.stdout, USAGE);
    return 0;
  }
  if (parsed.kind === 'version') {
    print(process.stdout, `cspwatch-mock ${VERSION}\n`);
    return 0;
  }
  if (parsed.kind === 'error') return usageError(parsed.message);
  let server: MockServer;
  const fromEnv = process.env[CONTROL_TOKEN_ENV];
  try {
    server = await startMockServer({
      ...parsed.options,
      ...(fromEnv ? { controlToken: fromEnv } : {}),
      ...(parsed.logRequests
        ? { onRequest: (entry) => print(process.stdout, requestLine(entry, COLOR)) }
        : {}),
    });
    if (parsed.scenarioFile !== undefined) {
      try {
        server.service.seed(JSON.parse(readFileSync(parsed.scenarioFile, 'utf8')));
      } catch (error) {
        await server.close();
        const message = error instanceof Error ? error.message : String(error);
        return usageError(`--scenario ${parsed.scenarioFile}: ${message}`);
      }
    }
  } catch (error) {
    const { port = 4010, host = '127.0.0.1' } = parsed.options;
    const code = (error as { code?: unknown }).code;
    if (code === 'EADDRINUSE') {
      print(
        process.stderr,
        `cspwatch-mock: port ${port} on ${host} is already in use; pick another with --port <n>, or --port 0 for a free one.\n`,
      );
      return 1;
    }
    if (typeof code === 'string' && BAD_HOST_CODES.has(code)) {
      const shown = /^[\w.:[\]-]{1,64}$/.test(host) ? `"${host}" ` : '';
      return usageError(
        `--host ${shown}is not an address of this machine (${code}); use 127.0.0.1, or 0.0.0.0 for every interface`,
      );
    }
    // A flag's value out of range is a usage error (exit 2), like an unknown flag.
    if (!isMockServerError(error) || error.code !== 'invalid_options') throw error;
    return usageError(nameFlags(error));
  }
  const { controlToken } = server;
  const control =
    controlToken === undefined
      ? ['Control API and inbox page (loopback only, no token):', `  ${server.url}/_mock/`]
      : fromEnv
        ? [`Control API: ${server.url}/_mock/ (token from ${CONTROL_TOKEN_ENV})`]
        : [
            `Control API: ${server.url}/_mock/ — send Authorization: Bearer <control token>`,
            `  control token       ${controlToken}`,
          ];
  const warnings = startWarnings(parsed.options).map((line) => paint(COLOR, 33, line));
  const loopback = warnings.length === 0 ? [] : ['', ...warnings];
  // Not through `print`: the curl line's `?limit=2` must stay runnable, and the banner's URLs
  // are this server's own; the one path a user typed (the scenario) is redacted on its own.
  process.stdout.write(
    [
      `cspwatch mock server listening on ${server.url}`,
      ...loopback,
      '',
      ...control,
      '',
      ...(parsed.scenarioFile === undefined
        ? fixtureLines(server)
        : [`Scenario: ${redactUrls(parsed.scenarioFile)} (tokens: GET ${server.url}/_mock/state)`]),
      '',
      parsed.logRequests
        ? 'Press Ctrl-C to stop. Requests are logged below (--quiet turns that off).'
        : 'Press Ctrl-C to stop.',
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
  print(process.stdout, 'cspwatch mock server stopped.\n');
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    const message = error instanceof Error ? error.message : String(error);
    print(process.stderr, `cspwatch-mock: ${message}\n`);
    process.exitCode = 1;
  },
);
