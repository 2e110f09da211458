/**
 * The client: iterating 10,000 keys (200 a page) from the real mock server over loopback,
 * against a loop written directly on ky, configured as the client needs it (retry, timeout,
 * hooks) and parsing each page with the same zod schema, and, for the record, a hand-written
 * loop of fetch + JSON.parse over the same pages, interleaved in one run; the same iteration
 * with the client built with and without its tracing module (no tracer provider registered),
 * interleaved likewise; and the peak live heap while iterating 100,000 keys against 1,000 (child processes
 * with --expose-gc, the mock server in this process so its memory is not counted).
 */
import { execFile } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { ApiKeyPageSchema, createCspwatchClient } from '@cspwatch/client';
import { type MockServer, startMockServer } from '@cspwatch/mock-server';
import ky from 'ky';
import { startKeyPagesServer } from './key-pages-server.js';
import {
  formatBytes,
  formatRatio,
  median,
  type SectionResult,
  type TargetResult,
  table,
} from './report.js';
import { buildUninstrumented, CLIENT_PACKAGE } from './uninstrumented-build.js';

const run = promisify(execFile);
const here = dirname(fileURLToPath(import.meta.url));
const PAGE = 200;

type CreateClient = typeof createCspwatchClient;

async function iterateWithClient(
  server: MockServer,
  create: CreateClient = createCspwatchClient,
): Promise<number> {
  const client = create({ baseUrl: server.url, token: server.tokens.admin });
  let count = 0;
  for await (const key of client.apiKeys.list(server.workspaceIds.main, { limit: PAGE })) {
    if (key.id) count += 1;
  }
  return count;
}

/**
 * The same iteration written directly on ky, as an application needing what the client does
 * would write it: retries with backoff, a timeout per attempt, the token set in a hook, and
 * every page parsed with the client's zod schema.
 */
async function iterateOnKy(server: MockServer): Promise<number> {
  const token = server.tokens.admin;
  const api = ky.create({
    prefixUrl: `${server.url}/v1/workspaces/${encodeURIComponent(server.workspaceIds.main)}`,
    timeout: 30_000,
    retry: { limit: 2, backoffLimit: 10_000 },
    headers: { accept: 'application/json' },
    hooks: {
      beforeRequest: [(request) => request.headers.set('authorization', `Bearer ${token}`)],
    },
  });
  let count = 0;
  let cursor: string | undefined;
  do {
    const searchParams = { limit: PAGE, ...(cursor === undefined ? {} : { cursor }) };
    const page = ApiKeyPageSchema.parse(await api.get('api-keys', { searchParams }).json());
    for (const key of page.data) if (key.id) count += 1;
    cursor = page.pagination.hasMore ? (page.pagination.nextCursor ?? undefined) : undefined;
  } while (cursor !== undefined);
  return count;
}

interface BarePage {
  data: { id: string }[];
  pagination: { nextCursor?: string | null; hasMore: boolean };
}

async function iterateByHand(server: MockServer): Promise<number> {
  const base = `${server.url}/v1/workspaces/${encodeURIComponent(server.workspaceIds.main)}/api-keys`;
  const headers = { authorization: `Bearer ${server.tokens.admin}`, accept: 'application/json' };
  let count = 0;
  let cursor: string | undefined;
  do {
    const query = cursor === undefined ? '' : `&cursor=${encodeURIComponent(cursor)}`;
    const response = await fetch(`${base}?limit=${PAGE}${query}`, { headers });
    if (!response.ok) throw new Error(`mock answered ${response.status}`);
    const page = JSON.parse(await response.text()) as BarePage;
    for (const key of page.data) if (key.id) count += 1;
    cursor = page.pagination.hasMore ? (page.pagination.nextCursor ?? undefined) : undefined;
  } while (cursor !== undefined);
  return count;
}

/** Wall time and CPU time (this process, all threads: client, mock server, GC) in ms. */
async function timeIt(
  fn: () => Promise<number>,
  expected: number,
): Promise<{ wall: number; cpu: number }> {
  const started = performance.now();
  const cpu = process.cpuUsage();
  const count = await fn();
  const used = process.cpuUsage(cpu);
  const wall = performance.now() - started;
  if (count !== expected) throw new Error(`iterated ${count} keys, expected ${expected}`);
  return { wall, cpu: (used.user + used.system) / 1000 };
}

/** The loops compared, ours first; the first is judged against the second. */
const LOOPS = [iterateWithClient, iterateOnKy, iterateByHand] as const;

async function iterationSpeed(quick: boolean) {
  const keys = 10_000;
  const server = await startMockServer({ apiKeyCount: keys });
  try {
    const rounds = quick ? 3 : 15;
    // Warm-up of every loop; the hand-written loop's count is what each must see.
    const served = await iterateByHand(server);
    for (const loop of LOOPS) await timeIt(() => loop(server), served);
    const walls: number[][] = LOOPS.map(() => []);
    const ratios: number[][] = LOOPS.map(() => []);
    const cpuRatios: number[][] = LOOPS.map(() => []);
    // Interleaved rounds, the order rotating, so drift and noise from other processes hit
    // every loop alike; each target is judged on the median of the per-round ratios.
    for (let round = 0; round < rounds; round += 1) {
      const order = LOOPS.map((_, index) => (index + round) % LOOPS.length);
      const times: { wall: number; cpu: number }[] = [];
      for (const index of order) times[index] = await timeIt(() => LOOPS[index]!(server), served);
      const [, onKy] = times as [unknown, { wall: number; cpu: number }];
      times.forEach((time, index) => {
        walls[index]!.push(time.wall);
        ratios[index]!.push(time.wall / onKy.wall);
        cpuRatios[index]!.push(time.cpu / onKy.cpu);
      });
    }
    const quartiles = (values: number[]): [number, number] => {
      const sorted = [...values].sort((a, b) => a - b);
      return [sorted[Math.floor((rounds - 1) / 4)]!, sorted[Math.ceil(((rounds - 1) * 3) / 4)]!];
    };
    const figures = LOOPS.map((_, index) => ({
      wall: median(walls[index]!),
      ratio: median(ratios[index]!),
      quartiles: quartiles(ratios[index]!),
      cpuRatio: median(cpuRatios[index]!),
    }));
    return { keys, served, rounds, figures };
  } finally {
    await server.close();
  }
}

/**
 * The cost of tracing when it is off: the client built as shipped (with `@opentelemetry/api`
 * installed, no tracer provider registered) against the same source built with its tracing
 * module stubbed out, iterating the same keys in interleaved rounds whose order alternates.
 */
async function tracingCost(quick: boolean) {
  const copies = {
    instrumented: pathToFileURL(await buildUninstrumented(CLIENT_PACKAGE, true)).href,
    uninstrumented: pathToFileURL(await buildUninstrumented(CLIENT_PACKAGE)).href,
  };
  const load = async (url: string) =>
    ((await import(url)) as { createCspwatchClient: CreateClient }).createCspwatchClient;
  const [on, off] = [await load(copies.instrumented), await load(copies.uninstrumented)];
  const keys = 10_000;
  const server = await startMockServer({ apiKeyCount: keys });
  try {
    const rounds = quick ? 3 : 15;
    const served = await iterateWithClient(server, off);
    await timeIt(() => iterateWithClient(server, on), served);
    const ratios: number[] = [];
    const cpuRatios: number[] = [];
    const times: { on: number[]; off: number[] } = { on: [], off: [] };
    for (let round = 0; round < rounds; round += 1) {
      const onFirst = round % 2 === 0;
      const order = onFirst ? [on, off] : [off, on];
      const first = await timeIt(() => iterateWithClient(server, order[0]), served);
      const second = await timeIt(() => iterateWithClient(server, order[1]), served);
      const [traced, bare] = onFirst ? [first, second] : [second, first];
      times.on.push(traced.wall);
      times.off.push(bare.wall);
      ratios.push(traced.wall / bare.wall);
      cpuRatios.push(traced.cpu / bare.cpu);
    }
    const sorted = [...ratios].sort((a, b) => a - b);
    const quartiles: [number, number] = [
      sorted[Math.floor((rounds - 1) / 4)]!,
      sorted[Math.ceil(((rounds - 1) * 3) / 4)]!,
    ];
    return {
      keys,
      rounds,
      quartiles,
      on: median(times.on),
      off: median(times.off),
      ratio: median(ratios),
      cpuRatio: median(cpuRatios),
    };
  } finally {
    await server.close();
  }
}

interface HeapFigures {
  count: number;
  baseline: number;
  peakLive: number;
  peakLiveFirstHalf: number;
  peakRaw: number;
  /** Live heap per key when the child holds 1,000 keys as the client yields them. */
  bytesPerKey: number;
}

/** The figures of one loop. */
type Figures = Awaited<ReturnType<typeof iterationSpeed>>['figures'][number];

async function heapFor(keys: number): Promise<HeapFigures> {
  const server = await startKeyPagesServer(keys);
  try {
    const { stdout } = await run(
      process.execPath,
      [
        '--expose-gc',
        '--import',
        'tsx',
        join(here, 'heap-child.ts'),
        server.url,
        server.token,
        server.workspaceId,
        String(keys),
      ],
      { cwd: join(here, '..'), timeout: 180_000, maxBuffer: 1024 * 1024 },
    );
    return JSON.parse(stdout.trim().split('\n').at(-1)!) as HeapFigures;
  } finally {
    await server.close();
  }
}

/** Runs the client section. */
export async function runClientBench(quick: boolean): Promise<SectionResult> {
  process.stderr.write('client: iteration\n');
  const speed = await iterationSpeed(quick);
  const [ours, onKy, byHand] = speed.figures as [Figures, Figures, Figures];
  const { ratio } = ours;
  process.stderr.write('client: tracing off, instrumented / uninstrumented\n');
  const tracing = await tracingCost(quick);
  const smallKeys = 1_000;
  const largeKeys = quick ? 10_000 : 100_000;
  process.stderr.write('client: heap\n');
  const small = await heapFor(smallKeys);
  const large = await heapFor(largeKeys);
  const heapRatio = large.peakLive / Math.max(small.peakLive, 1);
  const heapGrowth = large.peakLive - small.peakLive;
  // The issue asks for a small constant, not a ratio: an additive bound on the growth.
  const HEAP_GROWTH_LIMIT = 1024 * 1024;
  const bytesPerKey = small.bytesPerKey;
  const holdAll = (largeKeys - smallKeys) * bytesPerKey;
  const targets: TargetResult[] = [
    {
      section: 'client',
      target: `iterate ${speed.keys.toLocaleString('en')} keys / the same loop on ky (retry, timeout, hooks, zod)`,
      value: formatRatio(ratio),
      limit: '<= 1.10x',
      pass: ratio <= 1.1,
    },
    {
      section: 'client',
      target: `iterate ${tracing.keys.toLocaleString('en')} keys, no tracer provider: instrumented / uninstrumented build`,
      value: `${formatRatio(tracing.ratio)} (CPU ${formatRatio(tracing.cpuRatio)})`,
      limit: '<= 1.03x',
      pass: tracing.ratio <= 1.03,
    },
    {
      section: 'client',
      target: `peak live heap, ${largeKeys.toLocaleString('en')} keys − ${smallKeys.toLocaleString('en')} keys`,
      value: `${heapGrowth < 0 ? '−' : '+'}${formatBytes(Math.abs(heapGrowth))} (${formatBytes(large.peakLive)} vs ${formatBytes(small.peakLive)}; ratio ${formatRatio(heapRatio)}, for information)`,
      limit: `<= +1 MiB (holding every key: ~+${formatBytes(holdAll)}, ${formatBytes(bytesPerKey)} a key)`,
      pass: heapGrowth <= HEAP_GROWTH_LIMIT,
    },
  ];
  const row = (name: string, figures: Figures) => [
    name,
    `${figures.wall.toFixed(0)} ms`,
    (speed.keys / (figures.wall / 1000)).toFixed(0),
    `${formatRatio(figures.ratio)} (quartiles ${formatRatio(figures.quartiles[0])}-${formatRatio(figures.quartiles[1])})`,
    formatRatio(figures.cpuRatio),
  ];
  const speedTable = table(
    [
      'loop',
      `time for ${speed.keys.toLocaleString('en')} keys (median of ${speed.rounds})`,
      'keys/s',
      'wall-time ratio to the ky loop (median of the per-round ratios)',
      'CPU-time ratio (same rounds)',
    ],
    [
      row('ours: `for await (… of client.apiKeys.list(ws, { limit: 200 }))`', ours),
      row(
        'on ky: `ky.create({ retry, timeout, hooks })`, each page `ApiKeyPageSchema.parse`',
        onKy,
      ),
      row('hand-written fetch + JSON.parse loop (no validation), for the record', byHand),
    ],
  );
  const tracingTable = table(
    [
      'build (same source, esbuild)',
      `time for ${tracing.keys.toLocaleString('en')} keys (median of ${tracing.rounds})`,
      'wall-time ratio (median of the per-round ratios)',
      'CPU-time ratio (same rounds)',
    ],
    [
      [
        'instrumented (as shipped; `@opentelemetry/api` installed, no provider)',
        `${tracing.on.toFixed(0)} ms`,
        `${formatRatio(tracing.ratio)} (quartiles ${formatRatio(tracing.quartiles[0])}-${formatRatio(tracing.quartiles[1])})`,
        formatRatio(tracing.cpuRatio),
      ],
      [
        'uninstrumented (`src/telemetry/tracing.ts` stubbed out)',
        `${tracing.off.toFixed(0)} ms`,
        '1.00x',
        '1.00x',
      ],
    ],
  );
  const heapTable = table(
    [
      'keys iterated',
      'peak live heap above baseline (GC at each page)',
      'peak heapUsed above baseline, before GC',
    ],
    [small, large].map((figures) => [
      figures.count.toLocaleString('en'),
      formatBytes(figures.peakLive),
      formatBytes(figures.peakRaw),
    ]),
  );
  const pages = (largeKeys - smallKeys) / PAGE;
  const perPage = (large.peakLive - small.peakLive) / pages;
  const notes = [
    `Target: the peak live heap of the ${largeKeys.toLocaleString('en')}-key run minus that of the ${smallKeys.toLocaleString('en')}-key run is at most 1 MiB (the issue's "within a small constant", an additive bound). Reference: holding the ${(largeKeys - smallKeys).toLocaleString('en')} extra keys would cost about ${(largeKeys - smallKeys).toLocaleString('en')} × ${bytesPerKey.toFixed(0)} B = ${formatBytes(holdAll)}; ${bytesPerKey.toFixed(0)} B is the live heap per key measured in the ${smallKeys.toLocaleString('en')}-key child by holding ${smallKeys.toLocaleString('en')} keys as the client yields them (${formatBytes(large.bytesPerKey)} a key in the larger child).`,
    `Live heap grew ${formatBytes(Math.max(0, large.peakLive - small.peakLive))} over the ${pages} extra pages of the larger run (${perPage.toFixed(0)} B per page); bounded by one page means ~0 B per page.`,
    `In the larger run alone, the peak live heap grew ${formatBytes(Math.max(0, large.peakLive - large.peakLiveFirstHalf))} over its second half (${((large.peakLive - large.peakLiveFirstHalf) / (largeKeys / 2 / PAGE)).toFixed(0)} B per page): growth that stops is warm-up (V8 code, Node's buffer of the last 250 fetch resource timings), growth that goes on is memory held per page.`,
    ...(speed.served === speed.keys
      ? []
      : [
          `WARNING: the mock server served ${speed.served} rows for ${speed.keys} seeded keys (keys repeated across pages); both loops iterate the same rows.`,
        ]),
    'Tracing off: both builds come from the same source through esbuild (bench/src/uninstrumented-build.ts); the uninstrumented one has `src/telemetry/tracing.ts` swapped for a stub exporting the same names. They iterate the same mock server in interleaved rounds whose order alternates; the ratio is the median of the per-round ratios.',
    'The three loops run against the same mock server process over loopback HTTP, after one warm-up each, in interleaved rounds whose order rotates; a ratio is the median of the per-round ratios (loop time / time of the ky loop in the same round). The CPU-time ratio counts the CPU time of this process (client, mock server and GC threads) in the same rounds: it is not inflated by other processes on a shared machine, where wall time is. The client and the ky loop validate every page with the same zod schema; the hand-written loop does not.',
    'Heap: each count runs in a fresh `node --expose-gc` child, after a warm-up of 50 pages; after each page it forces a full GC, waits 10 ms so the finalizers it queued run (undici frees the signal links of each request that way), GCs again and samples `heapUsed`. A client holding every key would grow ~linearly with the count. The pages come from a minimal server in this process (bench/src/key-pages-server.ts) that clones a key taken from the mock server, serving each page in O(page) so the 100,000-key run takes seconds (the mock scans all its keys on every request).',
  ];
  return {
    title: 'Client: cursor iteration',
    markdown: `${speedTable}\n\n${tracingTable}\n\n${heapTable}\n\n${notes.map((note) => `- ${note}`).join('\n')}`,
    targets,
  };
}
