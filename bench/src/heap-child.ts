/**
 * Child process of the client heap measurement, started with `--expose-gc`:
 *   node --expose-gc --import tsx heap-child.ts <baseUrl> <token> <workspaceId> <expected>
 * Iterates every key with the client and, at each page boundary, runs a full GC (and lets
 * finalizers run) and samples `heapUsed`: the peak of those samples, less the baseline taken
 * before iterating, is the live memory the iteration holds. Prints one JSON line.
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
// Warm up over 50 pages (restarting the list when it is shorter), so code loaded and optimised
// by iterating (which lives on the heap too) is in the baseline and does not count as growth
// of the longer run.
const WARM_UP_PAGES = 50;
let warmed = 0;
while (warmed < WARM_UP_PAGES * PAGE) {
  for await (const _key of client.apiKeys.list(workspaceId, { limit: PAGE })) {
    warmed += 1;
    if (warmed >= WARM_UP_PAGES * PAGE) break;
  }
}
// A full GC, a short wait so the FinalizationRegistry callbacks it queued run (undici
// releases each finished request's abort-signal links that way; setImmediate is too early
// for them), then a GC again: what is left is memory something still holds.
const settle = async () => {
  gc();
  await new Promise((resolve) => setTimeout(resolve, 10));
  gc();
};
await settle();
const baseline = process.memoryUsage().heapUsed;
let peakLive = 0;
// Peak live heap over the first half of the pages: a client that holds something per page
// keeps growing in the second half, one that only warms up (JIT code, Node's resource
// timing buffer of the last 250 requests) does not.
let peakLiveFirstHalf = 0;
const halfway = Math.floor(Number(expectedText) / 2);
let peakRaw = 0;
let count = 0;
const sample = async () => {
  peakRaw = Math.max(peakRaw, process.memoryUsage().heapUsed - baseline);
  await settle();
  peakLive = Math.max(peakLive, process.memoryUsage().heapUsed - baseline);
};
for await (const key of client.apiKeys.list(workspaceId, { limit: PAGE })) {
  if (typeof key.id !== 'string') throw new Error('key without id');
  count += 1;
  if (count % PAGE === 0) await sample();
  if (count === halfway) peakLiveFirstHalf = peakLive;
}
await sample();
if (count < Number(expectedText))
  throw new Error(`iterated ${count} keys, expected ${expectedText}`);
// Reference: what holding keys costs. Keep the first 1,000 keys the client yields (as it
// yields them: parsed and validated) and measure the live heap they hold, per key.
const HELD = Math.min(1_000, count);
const held: unknown[] = [];
await settle();
const beforeHolding = process.memoryUsage().heapUsed;
for await (const key of client.apiKeys.list(workspaceId, { limit: PAGE })) {
  held.push(key);
  if (held.length >= HELD) break;
}
await settle();
const bytesPerKey = (process.memoryUsage().heapUsed - beforeHolding) / held.length;
console.log(
  JSON.stringify({
    count,
    baseline,
    peakLive,
    peakLiveFirstHalf,
    peakRaw,
    bytesPerKey,
    held: held.length,
  }),
);
