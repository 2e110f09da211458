import { type ParseArgsConfig, parseArgs } from 'node:util';

/** Where the example scripts write; injectable for tests. */
export interface ScriptOutput {
  stdout: (line: string) => void;
  stderr: (line: string) => void;
}

const ENVIRONMENT = `Environment:
  CSPWATCH_BASE_URL      the API to call; unset: the bundled mock server starts in-process
  CSPWATCH_TOKEN         bearer token (required with CSPWATCH_BASE_URL; never printed)
  CSPWATCH_WORKSPACE_ID  workspace to use (required with CSPWATCH_BASE_URL)`;

/**
 * Parses an example script's flags, with `-h`/`--help`. Returns the values, or `undefined`
 * after printing the usage (help: exit code 0) or a usage error (exit code 2), which it sets.
 */
export function parseScriptArgs<O extends NonNullable<ParseArgsConfig['options']>>(
  argv: readonly string[],
  options: O,
  usage: string,
  output: ScriptOutput = { stdout: console.log, stderr: console.error },
) {
  // `pnpm start -- --q x` passes the `--` through; skip it.
  const args = argv[0] === '--' ? argv.slice(1) : [...argv];
  try {
    const { values } = parseArgs({
      args,
      options: { ...options, help: { type: 'boolean', short: 'h' } },
      strict: true,
    });
    if ((values as { help?: boolean }).help) {
      output.stdout(`${usage}\n\n${ENVIRONMENT}`);
      process.exitCode = 0;
      return undefined;
    }
    return values;
  } catch (error) {
    output.stderr(`${(error as Error).message}\n\n${usage}`);
    process.exitCode = 2;
    return undefined;
  }
}
