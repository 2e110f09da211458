/**
 * Verify cost per body size, body as string and as Buffer: our Node signature check
 * (`verifyWebhookSignatureSync`) against the bare node:crypto floor, our full Node verify
 * against the floor + one JSON.parse, our Web Crypto signature check and full verify against a
 * bare `crypto.subtle.sign` (and + JSON.parse), and the peers. Every figure is measured
 * directly. Each cell (body size and kind) runs in a child process of its own
 * (`verify-cell.ts`); inside it, one table group of every task and then one small group per
 * target, each timed in interleaved rounds; every ratio is the median of per-round ratios
 * within its group (see measure.ts) and every target is judged on the 95% interval of that
 * median (judge.ts). The cells also go to `results/verify-cells.json` for `pnpm compare`.
 */
import { BODY_SIZES } from './bodies.js';
import { judgeResult, type RatioJudgement } from './judge.js';
import {
  type GroupResult,
  type MeasureBudget,
  poolResults,
  QUICK_BUDGET,
  ratioOf,
  timeOf,
} from './measure.js';
import { formatNs, formatRatio, type SectionResult, type TargetResult, table } from './report.js';
import { deserializeGroup, measureCellInChild } from './verify-cell.js';
import { type CellFigure, currentLoad, writeCellsFile } from './verify-cells-file.js';
import { KINDS, type Kind, TARGET_GROUPS } from './verify-tasks.js';

/** Table rows: label and task key, in display order. */
const ROWS: [label: string, key: string][] = [
  ['floor: createHmac + timingSafeEqual', 'floor'],
  ['floor + JSON.parse', 'floorParse'],
  ['ours: verifyWebhookSignatureSync (Node, signature only)', 'oursSig'],
  ['ours: verifyWebhookSync (Node, full)', 'ours'],
  ['ours: verifyWebhookSignature (Web Crypto, signature only)', 'webSig'],
  ['ours: verifyWebhook (Web Crypto, full)', 'web'],
  ['bare crypto.subtle.sign (encode + sign, key pre-imported)', 'subtle'],
  ['bare crypto.subtle.sign + JSON.parse', 'subtleParse'],
  ['stripe constructEvent', 'stripe constructEvent'],
  ['svix Webhook.verify', 'svix Webhook.verify'],
  ['standardwebhooks verify', 'standardwebhooks verify'],
  ['@octokit/webhooks-methods verify', '@octokit/webhooks-methods verify'],
];

/** Rows of the short string-body table (README summary). */
const SUMMARY_KEYS = [
  'ours',
  'oursSig',
  'web',
  'webSig',
  'floor',
  'subtle',
  'stripe constructEvent',
  'svix Webhook.verify',
  'standardwebhooks verify',
  '@octokit/webhooks-methods verify',
];

/** `±x%`: half the width of a 95% interval, relative to its median. */
function spreadOf(judgement: RatioJudgement): string {
  const [low, high] = judgement.interval;
  const half = (high - low) / 2 / judgement.ratio;
  return Number.isFinite(half) ? `±${(half * 100).toFixed(1)}%` : '±n/a';
}

/** The table group's budget in a full run: every task of a cell, for information. */
const TABLE_BUDGET: MeasureBudget = Object.freeze({ rounds: 11, batchMs: 20 });
/**
 * The passes of the target groups over one cell in a full run, and each pass's budget, by body
 * size. Up to 2 KB, where a call takes microseconds, a fresh process's JIT choices move the
 * ratio by a few percent from pass to pass, more than the rounds inside a pass spread: so many
 * short passes (10 of 4 rounds; with 5 of 8, two quiet runs in a row still disagreed by 6% on
 * one cell or another). From 64 KB the passes agree within a percent or two.
 */
function passPlanFor(bytes: number): MeasureBudget & { passes: number } {
  if (bytes <= 2048) return { passes: 10, rounds: 4, batchMs: 30 };
  return { passes: 5, rounds: bytes <= 65536 ? 6 : 4, batchMs: 30 };
}
/** At most this many more passes for a cell whose interval straddles a limit. */
const MAX_EXTRA_PASSES = 2;

/** One cell and what its passes measured so far, target groups pooled. */
interface Cell {
  size: (typeof BODY_SIZES)[number];
  kind: Kind;
  table: GroupResult | undefined;
  targets: GroupResult[];
  passes: number;
  webFile: string;
}

/** Measures the table group of `cell` in a child process of its own (the peers' libraries load there). */
async function measureTable(cell: Cell, budget: MeasureBudget) {
  process.stderr.write(`verify: ${cell.size.label}, ${cell.kind}, table\n`);
  const pass = await measureCellInChild({
    bytes: cell.size.bytes,
    kind: cell.kind,
    measure: 'table',
    budget,
  });
  cell.table = deserializeGroup(pass.table!);
  cell.webFile = pass.webFile;
}

/** Runs one more pass of the target groups over `cell` in a child process and pools its rounds. */
async function runPass(cell: Cell, budget: MeasureBudget) {
  process.stderr.write(`verify: ${cell.size.label}, ${cell.kind}, pass ${cell.passes + 1}\n`);
  const pass = await measureCellInChild({
    bytes: cell.size.bytes,
    kind: cell.kind,
    measure: 'targets',
    budget,
  });
  const results = pass.targets.map(deserializeGroup);
  cell.targets =
    cell.passes === 0
      ? results
      : cell.targets.map((old, index) => poolResults(old, results[index]!));
  cell.passes += 1;
}

/** Every target's judgement in a cell, in `TARGET_GROUPS` order. */
const judgeCell = (cell: Cell, remeasured: number) =>
  TARGET_GROUPS.flatMap((group, index) =>
    judgeResult(cell.targets[index]!, group.targets, remeasured),
  );

/** Runs the verify section. */
export async function runVerifyBench(budget: MeasureBudget): Promise<SectionResult> {
  const quick = budget.rounds <= QUICK_BUDGET.rounds;
  const tableBudget = quick ? budget : TABLE_BUDGET;
  const planOf = (cell: Cell) => (quick ? { ...budget, passes: 1 } : passPlanFor(cell.size.bytes));
  const loadBefore = currentLoad();
  const cells: Cell[] = BODY_SIZES.flatMap((size) =>
    KINDS.map((kind) => ({ size, kind, table: undefined, targets: [], passes: 0, webFile: '' })),
  );
  for (const cell of cells) await measureTable(cell, tableBudget);
  // Pass after pass over every cell, so each cell's rounds spread over the whole section.
  const mostPasses = Math.max(...cells.map((cell) => planOf(cell).passes));
  for (let pass = 0; pass < mostPasses; pass += 1) {
    for (const cell of cells) if (pass < planOf(cell).passes) await runPass(cell, planOf(cell));
  }
  const judgements = new Map(cells.map((cell) => [cell, judgeCell(cell, 0)]));
  const inconclusive = (cell: Cell) =>
    judgements.get(cell)!.some((judgement) => judgement.verdict === 'inconclusive');
  for (let extra = 1; !quick && extra <= MAX_EXTRA_PASSES; extra += 1) {
    const again = cells.filter(inconclusive);
    for (const cell of again) {
      await runPass(cell, planOf(cell));
      judgements.set(cell, judgeCell(cell, extra));
    }
  }
  const judged = new Map<string, RatioJudgement>();
  const figures: CellFigure[] = [];
  const allTargets = TARGET_GROUPS.flatMap((group) => group.targets);
  for (const cell of cells) {
    judgements.get(cell)!.forEach((judgement, index) => {
      const { label } = allTargets[index]!;
      judged.set(`${label}:${cell.size.label}:${cell.kind}`, judgement);
      figures.push({ target: label, size: cell.size.label, kind: cell.kind, ...judgement });
    });
  }
  writeCellsFile({
    measuredAt: new Date().toISOString(),
    node: process.version,
    loadBefore,
    loadAfter: currentLoad(),
    cells: figures,
  });
  const file = cells[0]!.webFile;
  const group = (size: string, kind: Kind) =>
    cells.find((cell) => cell.size.label === size && cell.kind === kind)!.table!;
  const cell = (size: string, kind: Kind, key: string) => {
    const value = timeOf(group(size, kind), key);
    if (Number.isNaN(value)) return 'n/a (string only)';
    return `${formatNs(value)} (${formatRatio(ratioOf(group(size, kind), key, 'floor'))})`;
  };
  const header = ['implementation', ...BODY_SIZES.map((s) => s.label)];
  const rowsFor = (kind: Kind, keys: readonly string[]) =>
    keys.map((key) => [
      ROWS.find((row) => row[1] === key)![0],
      ...BODY_SIZES.map((size) => cell(size.label, kind, key)),
    ]);
  const sections = KINDS.map(
    (kind) =>
      `#### Body as ${kind}\n\nTime per verification (paired ratio to the floor):\n\n${table(
        header,
        rowsFor(
          kind,
          ROWS.map((row) => row[1]),
        ),
      )}`,
  );
  const targets: TargetResult[] = [];
  const spreadRows: string[][] = [];
  const ratiosOf = (numerator: string, denominator: string, kind: Kind) =>
    BODY_SIZES.map((size) => ratioOf(group(size.label, kind), numerator, denominator));
  const ratioList = (ratios: number[]) =>
    ratios.map((ratio, index) => `${BODY_SIZES[index]!.label}: ${formatRatio(ratio)}`).join(', ');
  let remeasuredCells = 0;
  for (const kind of KINDS) {
    for (const { label, limit, clock } of TARGET_GROUPS.flatMap((g) => g.targets)) {
      const row = BODY_SIZES.map((size) => judged.get(`${label}:${size.label}:${kind}`)!);
      remeasuredCells += row.filter((judgement) => judgement.remeasured > 0).length;
      const inconclusive = row.filter((judgement) => judgement.verdict === 'inconclusive').length;
      const other = clock === 'cpu' ? 'wall' : 'cpu';
      targets.push({
        section: 'verify',
        target: `${label} (${kind}, ${clock === 'cpu' ? 'CPU time' : 'wall time'})`,
        value: row
          .map(
            (judgement, index) =>
              `${BODY_SIZES[index]!.label}: ${formatRatio(judgement.ratio)} ${spreadOf(judgement)}`,
          )
          .join(', '),
        limit: `<= ${formatRatio(limit)} at every size (95% interval)${inconclusive > 0 ? `; ${inconclusive} cell(s) inconclusive, judged on the median` : ''}`,
        pass: row.every((judgement) =>
          judgement.verdict === 'inconclusive'
            ? judgement.ratio <= limit
            : judgement.verdict === 'pass',
        ),
      });
      spreadRows.push([
        `${label} (${kind}; ${clock === 'cpu' ? 'CPU' : 'wall'} time)`,
        ...row.map(
          (judgement) =>
            `${formatRatio(judgement.ratio)} [${formatRatio(judgement.interval[0])}-${formatRatio(judgement.interval[1])}] ${judgement.verdict}${judgement.remeasured > 0 ? `, ${judgement.remeasured} more pass(es)` : ''}; ${other === 'cpu' ? 'CPU' : 'wall'}: ${formatRatio(judgement.byClock[other].ratio)}`,
        ),
      ]);
    }
  }
  const callsOf = (key: string) =>
    BODY_SIZES.map((size) => group(size.label, 'string').calls.get(key) ?? 0).join(' / ');
  const stringCells = cells.filter((cell) => cell.kind === 'string');
  const passes = stringCells.map((cell) => planOf(cell).passes).join(' / ');
  const roundsList = stringCells.map((cell) => planOf(cell).rounds).join(' / ');
  const batchMs = planOf(cells[0]!).batchMs;
  const spread = `Target ratios, each judged in its own group, ${passes} pass(es) per cell (by size), each pass a fresh child process of ${roundsList} rounds (by size) of ~${batchMs} ms batches, the passes' rounds pooled: median of the per-round ratios [95% confidence interval of the median], the verdict, and the same rounds' ratio on the other clock for information; ${remeasuredCells} cell(s) were measured in more passes because an interval straddled the limit:\n\n${table(['target', ...BODY_SIZES.map((s) => s.label)], spreadRows)}`;
  const notes = [
    `Method: each cell (body size and kind) is measured in fresh child processes, one per pass, so no cell inherits the JIT state of another. Tables: one group of every task per cell, in a child process of its own (the only one that loads the peers' libraries: loaded in the same process, stripe's alone moved our 256 B signature check from ~1.0x to 1.04x-1.39x of the floor); ${tableBudget.rounds} timed rounds after one discarded warm-up round; each round runs every task once as a batch of calls (sized to take ~${tableBudget.batchMs} ms, e.g. floor ${callsOf('floor')} calls, string body, by size), each task in a loop function of its own, in an order rotated every round, one full GC before the warm-up round and, only in groups whose every call takes 100 µs or more, one before each batch (a forced GC deoptimises the code under test; that costs nothing next to a slow call), timed on the wall clock (\`process.hrtime.bigint()\`) and in CPU time (\`process.cpuUsage()\`, all threads). The tables show wall time: the median over rounds of the time per call; every ratio (in parentheses, and in the targets) is the median over rounds of the ratio of the two tasks' times in the same round, which cancels drift of the machine between rounds.`,
    `Targets: ${passes} pass(es) (256 B / 2 KB / 64 KB / 1 MB) over all ${BODY_SIZES.length * KINDS.length} cells in turn (so each cell's rounds spread over the whole section), each a fresh child process timing the target groups (Node: floor, signature check, floor + JSON.parse, full verify; Web: bare subtle.sign, Web signature check) for ${roundsList} rounds (256 B / 2 KB / 64 KB / 1 MB; three times as many for the Web group, whose rounds spread wider) of ~${batchMs} ms batches; the rounds of a cell's passes are pooled. A verdict uses the distribution-free 95% interval of the median per-round ratio: PASS if it lies at or under the limit, FAIL if above, else up to ${MAX_EXTRA_PASSES} more passes for that cell and, if still inconclusive, judged on the median (counted in the limit column). Targets are judged on wall time (see the methodology in bench/README.md); the CPU-time ratio of the same rounds (process, all threads) is printed beside it. The ± next to each target ratio is half the interval's width. Each run writes the cells to \`results/verify-cells.json\` (git-ignored); \`pnpm --filter @cspwatch/bench run compare\` prints the per-cell agreement of the last two runs.`,
    'Floor: `createHmac("sha256", secret).update(ts).update(".").update(body).digest()` + `timingSafeEqual` against the expected signature, decoded once up front. Floor + JSON.parse adds one `JSON.parse` of the same body; for a Buffer body the reference parse is `JSON.parse(buf.toString("utf8"))` (our full verify decodes bytes with a fatal `TextDecoder`, which also rejects invalid UTF-8).',
    'Signature check: `verifyWebhookSignatureSync` from `@cspwatch/webhooks/node` measured directly (headers read, timestamp and signature parsed and checked, HMAC, constant-time compare; no decode, no parse).',
    `Web rows: \`verifyWebhookSignature\` and \`verifyWebhook\` of the default entry's Web Crypto build, imported by file (\`${file}\`, the \`exports["."].import.default\` target: on Node the package name resolves to the node:crypto build), checked to be that build (no sync exports, no \`node:crypto\` import). Its key cache is filled before timing. The bare reference encodes \`<ts>.<body>\` (\`TextEncoder.encode\` of the joined string; for a Buffer, \`Buffer.concat\` of prefix and body) and calls \`crypto.subtle.sign\` with a key imported once: the least a Web verifier must do with that input. Async tasks run their batch sequentially, awaiting each call.`,
    `For information, Web full verify / (bare subtle.sign + JSON.parse): string ${ratioList(ratiosOf('web', 'subtleParse', 'string'))}; Buffer ${ratioList(ratiosOf('web', 'subtleParse', 'Buffer'))}.`,
    'Peers: stripe, svix and standardwebhooks also parse the JSON; octokit only checks the signature (string bodies only).',
  ];
  const summary = `Verify, body as string (time per call, paired ratio to the node:crypto floor):\n\n${table(header, rowsFor('string', SUMMARY_KEYS))}`;
  return {
    title: 'Verify cost per body size',
    markdown: `${sections.join('\n\n')}\n\n${spread}\n\n${notes.map((note) => `- ${note}`).join('\n')}`,
    targets,
    summary,
  };
}
