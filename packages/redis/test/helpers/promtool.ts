/**
 * Runs Prometheus's own linter on a scrape: `promtool check metrics` (Debian's `prometheus`
 * package; `.ci/run` installs it when missing), or `PROMTOOL_BIN`.
 */
import { spawn } from 'node:child_process';

/** What `promtool check metrics` said about a scrape: its exit code and its complaints. */
export interface PromtoolVerdict {
  readonly code: number | null;
  readonly output: string;
}

/** Pipes `text` (Prometheus text format) to `promtool check metrics`. */
export function checkMetrics(text: string): Promise<PromtoolVerdict> {
  const bin = process.env.PROMTOOL_BIN ?? 'promtool';
  return new Promise((resolve, reject) => {
    const child = spawn(bin, ['check', 'metrics'], { stdio: ['pipe', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => {
      output += chunk;
    });
    child.stderr.on('data', (chunk) => {
      output += chunk;
    });
    child.on('error', (error) =>
      reject(new Error(`${bin} could not run (apt-get install prometheus): ${error.message}`)),
    );
    child.on('close', (code) => resolve({ code, output }));
    child.stdin.end(text);
  });
}
