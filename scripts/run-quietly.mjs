// Runs one command with its output held back: on success prints a single line (what ran and
// how long it took); on failure prints everything the command wrote and exits with its code.
// Used by `pnpm demo`, so the story is not buried under build output.
import { spawn } from 'node:child_process';

const [label, command, ...args] = process.argv.slice(2);
if (!label || !command) {
  console.error('usage: node scripts/run-quietly.mjs <label> <command> [args...]');
  process.exit(2);
}

const started = performance.now();
const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
const output = [];
child.stdout.on('data', (chunk) => output.push(chunk));
child.stderr.on('data', (chunk) => output.push(chunk));
child.on('error', (error) => {
  console.error(`${label}: could not start ${command}: ${error.message}`);
  process.exit(1);
});
child.on('close', (code, signal) => {
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  if (code === 0) {
    console.log(`${label}: done in ${seconds} s`);
    return;
  }
  process.stderr.write(Buffer.concat(output));
  console.error(`${label}: failed (${signal ?? `exit ${code}`}) after ${seconds} s`);
  process.exit(code ?? 1);
});
