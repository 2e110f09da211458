import { type CliIo, runCli } from '../../src/cli/run-cli';

/** What one CLI run wrote, and its exit status. */
export interface CliCapture {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the CLI in-process with the given environment and stdin, capturing its output. */
export async function captureCli(
  argv: string[],
  env: Record<string, string> = {},
  stdin = '',
): Promise<CliCapture> {
  let stdout = '';
  let stderr = '';
  const io: CliIo = {
    stdout: (text) => {
      stdout += text;
    },
    stderr: (text) => {
      stderr += text;
    },
    env,
    readStdin: async () => stdin,
  };
  const code = await runCli(argv, io);
  return { code, stdout, stderr };
}
