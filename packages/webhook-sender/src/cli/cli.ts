#!/usr/bin/env node
/**
 * The `cspwatch-webhook` executable: `cspwatch-webhook send-test --url <url> --secret-env VAR`.
 * See `run-cli.ts` for the commands.
 *
 * @packageDocumentation
 */
import { redactUrls } from '@cspwatch/contract';
import { nodeCliIo, runCli } from './run-cli';

runCli(process.argv.slice(2), nodeCliIo()).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    const message = error instanceof Error ? error.message : String(error);
    process.stderr.write(redactUrls(`cspwatch-webhook: unexpected error: ${message}\n`));
    process.exitCode = 70;
  },
);
