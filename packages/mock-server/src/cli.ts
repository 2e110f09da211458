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
import { isWebhookSenderError } from '@cspwatch/webhook-sender';
import {
  nameFlags,
  paint,
  parseCliOptions,
  requestLine,
  startWarnings,
  USAGE,
} from './cli-options';
import { describeTrigger, parseTriggerOptions, TRIGGER_USAGE } from './cli-trigger';
import { isMockServerError } from './errors';
import { type MockServer, startMockServer } from './node-server';
import { triggerAlert } from './trigger';
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

async function trigger(argv: string[]): Promise<number> {
  const parsed = parseTriggerOptions(argv, parseArgs, process.env);
  if (parsed.kind === 'help') {
    print(process.stdout, TRIGGER_USAGE);
    return 0;
  }
  if (parsed.kind === 'error') {
    print(process.stderr, `cspwatch-mock trigger: ${parsed.message}\n\n${TRIGGER_USAGE}`);
    return 2;
  }
  try {
    const outcome = await triggerAlert(parsed.to, parsed.secret, parsed.input, parsed.timeoutMs);
    print(process.stdout, describeTrigger(parsed.to, outcome));
    return outcome.result.ok ? 0 : 1;
  } catch (error) {
    if (!isWebhookSenderError(error)) throw error;
    const issues = error.issues.map((issue) => `  ${issue.path}: ${issue.message}`).join('\n');
    print(process.stderr, `cspwatch-mock trigger: ${error.code.replace('_', ' ')}:\n${issues}\n`);
    return 2;
  }
}

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
  if (argv[0] === 'trigger') return trigger(argv.slice(1));
  const parsed = parseCliOptions(argv, parseArgs);
  if (parsed.kind === 'help') {
    print(process.stdout, USAGE);
    return 0;
  }
  if (parsed.kind === 'version') {
    print(process.stdout, `cspwatch-mock ${VERSION}\n`);
    return 0;
  }
  if (parsed.kind === 'error') {
    print(process.stderr, `cspwatch-mock: ${parsed.message}\n\n${USAGE}`);
    return 2;
  }
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
        print(process.stderr, `cspwatch-mock: --scenario ${parsed.scenarioFile}: ${message}\n`);
        return 2;
      }
    }
  } catch (error) {
    if ((error as { code?: unknown }).code === 'EADDRINUSE') {
      const { port = 4010, host = '127.0.0.1' } = parsed.options;
      print(
        process.stderr,
        `cspwatch-mock: port ${port} on ${host} is already in use; pick another with --port <n>, or --port 0 for a free one.\n`,
      );
      return 1;
    }
    // A flag's value out of range is a usage error (exit 2), like an unknown flag.
    if (!isMockServerError(error) || error.code !== 'invalid_options') throw error;
    print(
      process.stderr,
      `cspwatch-mock: ${nameFlags(error.message)}\nRun cspwatch-mock --help for the flags.\n`,
    );
    return 2;
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
