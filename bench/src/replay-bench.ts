/**
 * The replay guard's cost and its memory bound (issue #11):
 * - paired: Node verify + the memory replay guard against Node verify alone, 2 KB Buffer
 *   bodies, sync (`verifyWebhookSync` + `claimSync`) and async (`verifyWebhook` + `claim`,
 *   the adapters' path). Each pair is one group of measure.ts (batches 4x the default):
 *   interleaved rounds, each task in its own compiled batch loop, every batch timed in wall
 *   time and in CPU time. Target <= 1.10x, on the CPU-time ratio (median of the per-round
 *   ratios).
 *   Both tasks of a pair do the same work but the claim: each call takes the next of one
 *   cycle of distinct deliveries and reads its header values into fresh strings, as an HTTP
 *   server does for each request (so a guard that keeps a header string pays to keep a young
 *   one, as in production). The guard is `createReplayGuard()`, the adapters' `replay: true`.
 * - flood: 1,000,000 distinct valid deliveries (each signed, verified and claimed) against
 *   one memory store with its default bound: how many are accepted, that the rest are refused
 *   with `replay_store_unavailable` (fail closed), that a replay of an accepted one is still
 *   refused afterwards, and the memory the store retains (heap and ArrayBuffers) against its documented bound.
 * - at the bound: the memory store under steady traffic (one new claim a ms), with claims
 *   lasting 100 s (as many live as its default bound: it sweeps near the bound) against claims
 *   lasting 50 s (half the bound), keys built beforehand. Target: at most 3x the cost per
 *   claim below the bound, and none refused (as many claims expire as come in).
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import {
  createMemoryReplayStore,
  createReplayGuard,
  DEFAULT_MAX_REPLAY_ENTRIES,
  isWebhookVerificationError,
  type ReplayGuard,
  signWebhookSync,
  verifyWebhook,
  verifyWebhookSync,
  type WebhookHeaders,
} from '@cspwatch/webhooks/node';
import { alertBody } from './bodies.js';
import {
  type MeasureBudget,
  measureGroup,
  QUICK_BUDGET,
  ratioInterval,
  ratioOf,
  timeOf,
} from './measure.js';
import { formatBytes, formatNs, formatRatio, type SectionResult, table } from './report.js';

const SECRET = 'bench-secret-0123456789abcdef';
const NOW = 1_800_000_000_000;
const now = () => NOW;
/** Documented in MemoryReplayStoreOptions.maxEntries: 16 B a slot, under 4 slots an entry. */
const BYTES_PER_ENTRY_BOUND = 64;
const RATIO_LIMIT = 1.1;
/** Claim cost at the store's bound / below it: a sweep per claim would be thousands of times. */
const AT_BOUND_LIMIT = 3;

const fullGc = (() => {
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
})();

/** A delivery's header values as the bytes a request carries them in. */
interface RawDelivery {
  timestamp: Buffer;
  signature: Buffer;
}

/** Distinct deliveries of one body: each timestamp in the window gives its own signature. */
function signedDeliveries(body: Buffer, count: number): RawDelivery[] {
  return Array.from({ length: count }, (_, index) => {
    const headers = signWebhookSync({ body, secret: SECRET, timestamp: NOW - index });
    return {
      timestamp: Buffer.from(headers['x-cspwatch-timestamp'], 'latin1'),
      signature: Buffer.from(headers['x-cspwatch-signature'], 'latin1'),
    };
  });
}

/**
 * Verify (+ claim) tasks over a cycle of distinct deliveries; when the cycle wraps, the
 * guard gets a fresh store, so every claim is a first delivery (as in production).
 */
function pairedTasks(body: Buffer, deliveries: RawDelivery[]) {
  let index = 0;
  let guard: ReplayGuard = createReplayGuard();
  /** The next delivery's headers, in fresh strings (what a server parses per request). */
  const next = (): WebhookHeaders => {
    index += 1;
    if (index === deliveries.length) {
      index = 0;
      guard = createReplayGuard();
    }
    const { timestamp, signature } = deliveries[index]!;
    return {
      'content-type': 'application/json',
      'x-cspwatch-timestamp': timestamp.toString('latin1'),
      'x-cspwatch-signature': signature.toString('latin1'),
    };
  };
  return [
    {
      name: 'verify (sync)',
      fn: () => verifyWebhookSync({ body, headers: next(), secret: SECRET, now }),
    },
    {
      name: 'verify + guard (sync)',
      fn: () => {
        const headers = next();
        guard.claimSync(verifyWebhookSync({ body, headers, secret: SECRET, now }), headers);
      },
    },
    {
      // The same async wrapper as the guarded task: the pair differs only by the claim.
      name: 'verify (async)',
      fn: async () => {
        const headers = next();
        await verifyWebhook({ body, headers, secret: SECRET, now });
      },
    },
    {
      name: 'verify + guard (async)',
      fn: async () => {
        const headers = next();
        await guard.claim(await verifyWebhook({ body, headers, secret: SECRET, now }), headers);
      },
    },
  ];
}

/**
 * JS heap plus ArrayBuffer memory after full GCs (the store keeps its table in typed arrays,
 * off the heap). The wait lets V8 free collected ArrayBuffers' memory, which it does on
 * another thread after the collection.
 */
async function retainedMemory(): Promise<number> {
  fullGc();
  await new Promise((resolve) => setTimeout(resolve, 50));
  fullGc();
  const { heapUsed, arrayBuffers } = process.memoryUsage();
  return heapUsed + arrayBuffers;
}

interface FloodResult {
  deliveries: number;
  accepted: number;
  refusedFull: number;
  replaysAccepted: number;
  retainedBytes: number;
  seconds: number;
}

/** Sends `count` distinct valid deliveries through verify + guard, then replays accepted ones. */
async function flood(count: number): Promise<FloodResult> {
  const started = Date.now();
  const before = await retainedMemory();
  const store = createMemoryReplayStore({ now });
  const guard = createReplayGuard({ store });
  const accepted: { body: string; headers: WebhookHeaders }[] = [];
  let acceptedCount = 0;
  let refusedFull = 0;
  for (let index = 0; index < count; index += 1) {
    const body = `{"id":"flood-${index}","eventType":"csp-violation:new-type","findings":[]}`;
    const headers = signWebhookSync({ body, secret: SECRET, timestamp: NOW });
    const event = verifyWebhookSync({ body, headers, secret: SECRET, now });
    try {
      guard.claimSync(event, headers);
      acceptedCount += 1;
      if (index % 1000 === 0) accepted.push({ body, headers });
    } catch (error) {
      if (!isWebhookVerificationError(error) || error.code !== 'replay_store_unavailable')
        throw error;
      refusedFull += 1;
    }
  }
  const retainedBytes = (await retainedMemory()) - before;
  let replaysAccepted = 0;
  for (const { body, headers } of accepted) {
    try {
      guard.claimSync(verifyWebhookSync({ body, headers, secret: SECRET, now }), headers);
      replaysAccepted += 1;
    } catch (error) {
      if (!isWebhookVerificationError(error)) throw error;
    }
  }
  return {
    deliveries: count,
    accepted: acceptedCount,
    refusedFull,
    replaysAccepted,
    retainedBytes,
    seconds: (Date.now() - started) / 1000,
  };
}

interface AtBoundResult {
  /** ns a claim with claims lasting 50 s / 100 s, one new claim a ms. */
  belowNs: number;
  atBoundNs: number;
  refused: number;
}

/** Claims `keys` one ms apart on a default store: ns a claim over the second half, and refusals. */
function steadyTraffic(keys: readonly string[], ttlMs: number): { ns: number; refused: number } {
  let time = NOW;
  const store = createMemoryReplayStore({ now: () => time });
  const half = keys.length / 2;
  let refused = 0;
  let started = 0n;
  for (let index = 0; index < keys.length; index += 1) {
    if (index === half) [refused, started] = [0, process.hrtime.bigint()];
    time += 1;
    try {
      store.claim(keys[index]!, ttlMs);
    } catch {
      refused += 1;
    }
  }
  return { ns: Number(process.hrtime.bigint() - started) / half, refused };
}

/** The memory store at its bound under steady traffic against half its bound. */
function atTheBound(count: number): AtBoundResult {
  const keys = Array.from(
    { length: count },
    (_, i) => `sha256=${i.toString(16).padStart(64, '0')}`,
  );
  const bound = DEFAULT_MAX_REPLAY_ENTRIES;
  steadyTraffic(keys, bound / 2); // warm-up
  const below = steadyTraffic(keys, bound / 2);
  const atBound = steadyTraffic(keys, bound);
  return { belowNs: below.ns, atBoundNs: atBound.ns, refused: atBound.refused + below.refused };
}

/** Runs the replay-guard section. */
export async function runReplayBench(budget: MeasureBudget): Promise<SectionResult> {
  const quick = budget.rounds <= QUICK_BUDGET.rounds;
  const body = Buffer.from(alertBody(2 * 1024));
  const tasks = pairedTasks(body, signedDeliveries(body, 100_000));
  process.stderr.write('replay: paired verify vs verify + guard, 2 KB\n');
  const pairs = [
    ['sync', 'verify + guard (sync)', 'verify (sync)'],
    ['async', 'verify + guard (async)', 'verify (async)'],
  ] as const;
  // Batches 4x the section default: each batch then spans several of the guard's young-gen
  // collections and sweeps of expired claims, so a round's ratio is the calls' and varies less.
  const pairBudget = { ...budget, batchMs: budget.batchMs * 4 };
  const rows = [];
  for (const [kind, guarded, alone] of pairs) {
    // One group per pair: each ratio pairs only the two tasks it compares, round by round.
    const result = await measureGroup(
      tasks.filter((task) => task.name === alone || task.name === guarded),
      pairBudget,
    );
    const cpuRatio = ratioOf(result.cpu, guarded, alone);
    const [low, high] = ratioInterval(result.cpu, guarded, alone);
    const wall = ratioOf(result, guarded, alone);
    rows.push({
      kind,
      ratio: cpuRatio,
      cells: [
        kind,
        `${formatNs(timeOf(result.cpu, alone))} / ${formatNs(timeOf(result, alone))}`,
        `${formatNs(timeOf(result.cpu, guarded))} / ${formatNs(timeOf(result, guarded))}`,
        `${formatRatio(cpuRatio)} (${formatRatio(low)} – ${formatRatio(high)})`,
        formatRatio(wall),
      ],
    });
  }
  const floodCount = quick ? 120_000 : 1_000_000;
  process.stderr.write(`replay: flood of ${floodCount} distinct deliveries\n`);
  const floodResult = await flood(floodCount);
  const bound = DEFAULT_MAX_REPLAY_ENTRIES * BYTES_PER_ENTRY_BOUND;
  process.stderr.write('replay: memory store at its bound under steady traffic\n');
  const steady = atTheBound(4 * DEFAULT_MAX_REPLAY_ENTRIES);
  const steadyRatio = steady.atBoundNs / steady.belowNs;
  const floodHeld =
    floodResult.accepted === Math.min(floodCount, DEFAULT_MAX_REPLAY_ENTRIES) &&
    floodResult.replaysAccepted === 0 &&
    floodResult.retainedBytes <= bound;
  const markdown = [
    `Node verify with the in-memory replay guard against verify alone, 2 KB Buffer body, paired in one run (${budget.rounds} interleaved rounds, each task in its own batch loop). Times per call are CPU time / wall time. The target is judged on the CPU-time ratio (median of per-round ratios, 95% interval: what the guard costs this process, GC included); the wall-time ratio also counts the time other processes held the cores.`,
    '',
    table(
      ['path', 'verify alone', 'verify + guard', 'CPU ratio (95% interval)', 'wall ratio'],
      rows.map((row) => row.cells),
    ),
    '',
    `Flood: ${floodResult.deliveries.toLocaleString('en')} distinct valid deliveries (signed, verified, claimed) against one memory store with the default bound (${DEFAULT_MAX_REPLAY_ENTRIES.toLocaleString('en')} entries) in ${floodResult.seconds.toFixed(1)} s: ${floodResult.accepted.toLocaleString('en')} accepted, ${floodResult.refusedFull.toLocaleString('en')} refused with \`replay_store_unavailable\` (fail closed, 503 in the adapters), ${floodResult.replaysAccepted} replays of accepted ones accepted afterwards; memory retained (heap and ArrayBuffers) ${formatBytes(floodResult.retainedBytes)} (bound ${formatBytes(bound)}: ${BYTES_PER_ENTRY_BOUND} B × ${DEFAULT_MAX_REPLAY_ENTRIES.toLocaleString('en')}).`,
    '',
    `At the bound: one default store (${DEFAULT_MAX_REPLAY_ENTRIES.toLocaleString('en')} entries) takes one new claim a ms for 400 s (keys built beforehand), timed over the last 200 s. With claims lasting 100 s (always at the bound) a claim costs ${formatNs(steady.atBoundNs)}; with claims lasting 50 s (half the bound) ${formatNs(steady.belowNs)}: ${formatRatio(steadyRatio)}. Refused: ${steady.refused} (as many claims expire as come in).`,
  ].join('\n');
  return {
    title: 'Replay guard',
    markdown,
    targets: [
      ...rows.map((row) => ({
        section: 'replay',
        target: `verify + memory guard / verify, 2 KB, CPU time (${row.kind})`,
        value: formatRatio(row.ratio),
        limit: `<= ${formatRatio(RATIO_LIMIT)}`,
        pass: row.ratio <= RATIO_LIMIT,
      })),
      {
        section: 'replay',
        target: `flood of ${floodCount.toLocaleString('en')}: memory bound, fail closed, 0 replays`,
        value: `${formatBytes(floodResult.retainedBytes)}, ${floodResult.replaysAccepted} replays`,
        limit: `<= ${formatBytes(bound)}, 0`,
        pass: floodHeld,
      },
      {
        section: 'replay',
        target: 'memory store claim at its bound / below it, steady traffic (refused)',
        value: `${formatRatio(steadyRatio)} (${steady.refused})`,
        limit: `<= ${formatRatio(AT_BOUND_LIMIT)} (0)`,
        pass: steadyRatio <= AT_BOUND_LIMIT && steady.refused === 0,
      },
    ],
  };
}
