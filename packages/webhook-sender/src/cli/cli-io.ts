/**
 * What the CLI reads and writes, injectable for tests, and the real process I/O.
 */
import { readFile } from 'node:fs/promises';

/** What the CLI reads and writes; injectable for tests. */
export interface CliIo {
  /** Writes to standard output. */
  readonly stdout: (text: string) => void;
  /** Writes to standard error (usage errors, warnings). */
  readonly stderr: (text: string) => void;
  /** The environment the secret is read from (`--secret-env`). */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Reads all of standard input as UTF-8 (`--secret-stdin`, `--payload -`). */
  readonly readStdin: () => Promise<string>;
  /** Reads a file as UTF-8 (`send --payload <file>`). @default node:fs readFile */
  readonly readFile?: (path: string) => Promise<string>;
  /** Whether stdout is a terminal that takes colour (and NO_COLOR is not set). */
  readonly color?: boolean;
}

/** Reads a UTF-8 file with node:fs. */
export const readFileUtf8 = (path: string): Promise<string> => readFile(path, 'utf8');

/** The real process I/O of the CLI. */
export function nodeCliIo(): CliIo {
  return {
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
    env: process.env,
    color: process.stdout.isTTY === true && !process.env.NO_COLOR,
    readStdin: async () => {
      const chunks: Buffer[] = [];
      for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
      return Buffer.concat(chunks).toString('utf8');
    },
    readFile: readFileUtf8,
  };
}
