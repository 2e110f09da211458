/**
 * Child process of the client heap measurement, started with `--expose-gc`:
 *   node --expose-gc --import tsx heap-child.ts <baseUrl> <token> <workspaceId> <expected>
 * Iterates every key with the client and, at each page boundary, runs a full GC and samples
 * `heapUsed`: the peak of those samples, less the baseline taken before iterating, is the
 * live memory the iteration holds. Prints one JSON line.
 */
import { createCspwatchClient } from '@cspwatch/client';

const [baseUrl, token, workspaceId, expectedText] = process.argv.slice(2) as [
  string,
  string,
  string,
  string,
];
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with --expose-gc');
const PAGE = 200;

const client = createCspwatchClient({ baseUrl, token });
// Warm up over up to 5 pages, so code loaded and optimised by iterating (which lives on the
// heap too) is in the baseline and does not count as growth of the longer run.
let warmed = 0;
for await (const _key of client.apiKeys.list(workspaceId, { limit: PAGE })) {
  warmed += 1;
  if (warmed >= 5 * PAGE) break;
}
gc();
const baseline = process.memoryUsage().heapUsed;
let peakLive = 0;
let peakRaw = 0;
let count = 0;
const sample = () => {
  peakRaw = Math.max(peakRaw, process.memoryUsage().heapUsed - baseline);
  gc();
  peakLive = Math.max(peakLive, process.memoryUsage().heapUsed - baseline);
};
for await (const key of client.apiKeys.list(workspaceId, { limit: PAGE })) {
  if (typeof key.id !== 'string') throw new Error('key without id');
  count += 1;
  if (count % PAGE === 0) sample();
}
sample();
if (count < Number(expectedText))
  throw new Error(`iterated ${count} keys, expected ${expectedText}`);
console.log(JSON.stringify({ count, baseline, peakLive, peakRaw }));
