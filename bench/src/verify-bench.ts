/**
 * Verify cost per body size, body as string and as Buffer, all in one run: our Node signature
 * check (`verifyWebhookSignatureSync`) against the bare node:crypto floor, our full Node
 * verify against the floor + one JSON.parse, our Web Crypto signature check and full verify
 * against a bare `crypto.subtle.sign` (and + JSON.parse), and the peers. Every figure is
 * measured directly, in one group per body size and kind timed in interleaved rounds; every
 * ratio is the median of per-round ratios within its group (see measure.ts).
 */
import { createHmac, timingSafeEqual, webcrypto } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  signWebhookSync,
  verifyWebhookSignatureSync,
  verifyWebhookSync,
} from '@cspwatch/webhooks/node';
import { alertBody, BODY_SIZES } from './bodies.js';
import { judgeTargets, type RatioJudgement, type RatioTarget } from './judge.js';
import {
  type GroupResult,
  type MeasureBudget,
  measureGroup,
  QUICK_BUDGET,
  ratioOf,
  type TimedTask,
  timeOf,
} from './measure.js';
import { createPeerTasks } from './peers.js';
import { formatNs, formatRatio, type SectionResult, type TargetResult, table } from './report.js';

type WebBuild = Pick<
  typeof import('@cspwatch/webhooks/node'),
  'verifyWebhook' | 'verifyWebhookSignature'
>;

const SECRET = 'bench-secret-0123456789abcdef';
const KINDS = ['string', 'Buffer'] as const;
type Kind = (typeof KINDS)[number];

/**
 * The Web Crypto build: the default entry's non-`node` target (`exports['.'].import.default`,
 * i.e. `dist/index.js`), imported by file path, because on Node the package name resolves to
 * the node:crypto build. Checked to be that build: no sync exports, no node:crypto import.
 */
async function loadWebBuild(): Promise<{ web: WebBuild; file: string }> {
  const require = createRequire(import.meta.url);
  const manifestPath = require.resolve('@cspwatch/webhooks/package.json');
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));
  const target: string = manifest.exports['.'].import.default;
  const path = join(dirname(manifestPath), target);
  const module = await import(pathToFileURL(path).href);
  if ('verifyWebhookSync' in module || /node:crypto/.test(readFileSync(path, 'utf8'))) {
    throw new Error(`${path} is not the Web Crypto build`);
  }
  return { web: module as WebBuild, file: relative(join(dirname(manifestPath), '..'), path) };
}

/**
 * The targets, each judged in a small group of its own tasks (so the two sides of a ratio run
 * back to back, not ten peers apart), on longer batches and more rounds than the tables.
 */
const TARGET_BUDGET: MeasureBudget = Object.freeze({ rounds: 31, batchMs: 40 });
const TARGET_GROUPS: { tasks: readonly string[]; targets: (RatioTarget & { label: string })[] }[] =
  [
    {
      tasks: ['floor', 'oursSig', 'floorParse', 'ours'],
      targets: [
        {
          label: 'Node signature check (verifyWebhookSignatureSync) / floor',
          numerator: 'oursSig',
          denominator: 'floor',
          limit: 1.1,
        },
        {
          label: 'Node full verify (verifyWebhookSync) / (floor + JSON.parse)',
          numerator: 'ours',
          denominator: 'floorParse',
          limit: 1.1,
        },
      ],
    },
    {
      tasks: ['subtle', 'webSig'],
      targets: [
        {
          label: 'Web signature check (verifyWebhookSignature) / bare subtle.sign',
          numerator: 'webSig',
          denominator: 'subtle',
          limit: 1.25,
        },
      ],
    },
  ];

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

/** The tasks of one body size, one group per body kind. */
async function groupsFor(bytes: number, web: WebBuild): Promise<Record<Kind, TimedTask[]>> {
  const text = alertBody(bytes);
  const buffer = Buffer.from(text);
  const timestamp = Date.now();
  const ts = String(timestamp);
  const headers = signWebhookSync({ body: text, secret: SECRET, timestamp });
  const expected = Buffer.from(headers['x-cspwatch-signature'].slice('sha256='.length), 'hex');
  const now = () => timestamp;
  const key = await webcrypto.subtle.importKey(
    'raw',
    new TextEncoder().encode(SECRET),
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    ['sign'],
  );
  const encoder = new TextEncoder();
  const prefix = Buffer.from(`${ts}.`);
  const floor = (body: string | Buffer) =>
    timingSafeEqual(
      createHmac('sha256', SECRET).update(ts).update('.').update(body).digest(),
      expected,
    );
  // The reference parse: a Buffer is decoded with buf.toString('utf8') first.
  const parse = (body: string | Buffer) =>
    JSON.parse(typeof body === 'string' ? body : body.toString('utf8'));
  // The least a Web verifier must do with this input: `<ts>.<body>` as bytes, then sign.
  const subtle = (body: string | Buffer) =>
    webcrypto.subtle.sign(
      'HMAC',
      key,
      typeof body === 'string' ? encoder.encode(`${ts}.${body}`) : Buffer.concat([prefix, body]),
    );
  const peers = await createPeerTasks(text);
  const groups: Record<Kind, TimedTask[]> = { string: [], Buffer: [] };
  for (const kind of KINDS) {
    const body = kind === 'string' ? text : buffer;
    const options = { body, headers, secret: SECRET, now };
    const add = (name: string, fn: () => unknown) => groups[kind].push({ name, fn });
    add('floor', () => floor(body));
    add('floorParse', () => floor(body) && parse(body));
    add('oursSig', () => verifyWebhookSignatureSync(options));
    add('ours', () => verifyWebhookSync(options));
    add('webSig', () => web.verifyWebhookSignature(options));
    add('web', () => web.verifyWebhook(options));
    add('subtle', () => subtle(body));
    add('subtleParse', async () => (await subtle(body)) && parse(body));
    for (const peer of peers) {
      const fn = kind === 'string' ? peer.string : peer.buffer;
      if (fn) add(peer.name, fn);
    }
    // Fail loudly rather than time an error path; the Web key cache is filled here.
    if (!floor(body)) throw new Error('the floor rejected its own signature');
    verifyWebhookSync(options);
    verifyWebhookSignatureSync(options);
    await web.verifyWebhook(options);
    await web.verifyWebhookSignature(options);
    await expectWebRejects(web, {
      ...options,
      body: kind === 'string' ? `${text} ` : buffer.subarray(1),
    });
  }
  return groups;
}

async function expectWebRejects(web: WebBuild, options: Parameters<WebBuild['verifyWebhook']>[0]) {
  const rejected = await web.verifyWebhookSignature(options).then(
    () => false,
    () => true,
  );
  if (!rejected) throw new Error('the Web build accepted a tampered body');
}

/** Runs the verify section. */
export async function runVerifyBench(budget: MeasureBudget): Promise<SectionResult> {
  const { web, file } = await loadWebBuild();
  const quick = budget.rounds <= QUICK_BUDGET.rounds;
  const results = new Map<string, GroupResult>();
  const judged = new Map<string, RatioJudgement>();
  for (const size of BODY_SIZES) {
    const groups = await groupsFor(size.bytes, web);
    for (const kind of KINDS) {
      process.stderr.write(`verify: ${size.label}, ${kind}\n`);
      results.set(`${size.label}:${kind}`, await measureGroup(groups[kind], budget));
      for (const { tasks, targets } of TARGET_GROUPS) {
        const own = groups[kind].filter((task) => tasks.includes(task.name));
        const verdicts = await judgeTargets(
          own,
          targets,
          quick ? budget : TARGET_BUDGET,
          quick ? 0 : 2,
        );
        targets.forEach((target, index) => {
          judged.set(`${target.label}:${size.label}:${kind}`, verdicts[index]!);
        });
      }
    }
  }
  const group = (size: string, kind: Kind) => results.get(`${size}:${kind}`)!;
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
    for (const { label, limit } of TARGET_GROUPS.flatMap((g) => g.targets)) {
      const cells = BODY_SIZES.map((size) => judged.get(`${label}:${size.label}:${kind}`)!);
      remeasuredCells += cells.filter((cell) => cell.remeasured > 0).length;
      const inconclusive = cells.filter((cell) => cell.verdict === 'inconclusive').length;
      targets.push({
        section: 'verify',
        target: `${label} (${kind})`,
        value: cells
          .map((cell, index) => `${BODY_SIZES[index]!.label}: ${formatRatio(cell.ratio)}`)
          .join(', '),
        limit: `<= ${formatRatio(limit)} at every size (95% interval)${inconclusive > 0 ? `; ${inconclusive} cell(s) inconclusive, judged on the median` : ''}`,
        pass: cells.every((cell) =>
          cell.verdict === 'inconclusive' ? cell.ratio <= limit : cell.verdict === 'pass',
        ),
      });
      spreadRows.push([
        `${label} (${kind})`,
        ...cells.map(
          (cell) =>
            `${formatRatio(cell.ratio)} [${formatRatio(cell.interval[0])}-${formatRatio(cell.interval[1])}] ${cell.verdict}${cell.remeasured > 0 ? `, re-measured ${cell.remeasured}x` : ''}`,
        ),
      ]);
    }
  }
  const callsOf = (key: string) =>
    BODY_SIZES.map((size) => group(size.label, 'string').calls.get(key) ?? 0).join(' / ');
  const targetRounds = quick ? budget.rounds : TARGET_BUDGET.rounds;
  const spread = `Target ratios, each judged in its own group (${targetRounds} rounds of ~${quick ? budget.batchMs : TARGET_BUDGET.batchMs} ms batches): median of the per-round ratios [95% confidence interval of the median] and the verdict; ${remeasuredCells} cell(s) were re-measured because the interval straddled the limit:\n\n${table(['target', ...BODY_SIZES.map((s) => s.label)], spreadRows)}`;
  const notes = [
    `Method: one group per body size and kind; ${budget.rounds} timed rounds after one discarded warm-up round; each round runs every task once as a batch of calls (sized to take ~${budget.batchMs} ms, e.g. floor ${callsOf('floor')} calls, string body, by size), wall clock (\`process.hrtime.bigint()\`), in an order rotated every round, a full GC before each batch. Times are the median over rounds of the time per call; every ratio (in parentheses, and in the targets) is the median over rounds of the ratio of the two tasks' times in the same round, which cancels drift of the machine between rounds.`,
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
