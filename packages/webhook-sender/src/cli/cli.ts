#!/usr/bin/env node
/**
 * The `cspwatch-webhook` executable: `cspwatch-webhook send-test --url <url> --secret-env VAR`.
 * See `run-cli.ts` for the commands.
 *
 * @packageDocumentation
 */
import { nodeCliIo, runCli } from './run-cli';

runCli(process.argv.slice(2), nodeCliIo()).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(
      `cspwatch-webhook: unexpected error: ${error instanceof Error ? error.message : String(error)}\n`,
    );
    process.exitCode = 70;
  },
);
