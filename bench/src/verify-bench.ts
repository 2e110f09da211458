/**
 * Verify cost per body size, body as string and as Buffer, all in one run: our Node sync
 * verify, our signature check (verify minus one JSON.parse: the package exposes no
 * signature-only function), our Web Crypto verify against a bare `crypto.subtle.sign`, the
 * bare node:crypto floor, the floor + JSON.parse, and the peers. Ratios are taken within each
 * size's group, whose tasks are measured in interleaved rounds.
 */
import { createHmac, timingSafeEqual, webcrypto } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { type CspwatchEvent, signWebhookSync, verifyWebhookSync } from '@cspwatch/webhooks/node';
import { alertBody, BODY_SIZES } from './bodies.js';
import { type MeasureBudget, measureGroup, type TimedTask } from './measure.js';
import { createPeerTasks } from './peers.js';
import { formatNs, formatRatio, type SectionResult, type TargetResult, table } from './report.js';

type WebVerify = (options: Parameters<typeof verifyWebhookSync>[0]) => Promise<CspwatchEvent>;

const SECRET = 'bench-secret-0123456789abcdef';
const KINDS = ['string', 'Buffer'] as const;
type Kind = (typeof KINDS)[number];

/**
 * The Web Crypto build (the default entry's non-`node` branch). On Node the package name
 * resolves to the node:crypto build, so the file is loaded by path from the exports map.
 */
async function loadWebVerify(): Promise<WebVerify> {
  const require = createRequire(import.meta.url);
  const manifestPath = require.resolve('@cspwatch/webhooks/package.json');
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));
  const target: string = manifest.exports['.'].import.default;
  const module = await import(pathToFileURL(join(dirname(manifestPath), target)).href);
  return module.verifyWebhook as WebVerify;
}

interface Row {
  label: string;
  key: string;
}

const ROWS: Row[] = [
  { label: 'floor: createHmac + timingSafeEqual', key: 'floor' },
  { label: 'floor + JSON.parse', key: 'floorParse' },
  { label: 'JSON.parse alone', key: 'parse' },
  { label: 'ours: verifyWebhookSync (Node)', key: 'ours' },
  { label: 'ours: signature check (verify − JSON.parse)', key: 'oursSignature' },
  { label: 'ours: verifyWebhook (Web Crypto)', key: 'oursWeb' },
  { label: 'bare crypto.subtle.sign (key pre-imported)', key: 'subtle' },
  { label: 'stripe constructEvent', key: 'stripe constructEvent' },
  { label: 'svix Webhook.verify', key: 'svix Webhook.verify' },
  { label: 'standardwebhooks verify', key: 'standardwebhooks verify' },
  { label: '@octokit/webhooks-methods verify', key: '@octokit/webhooks-methods verify' },
];

async function groupFor(bytes: number, webVerify: WebVerify) {
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
  const parse = (body: string | Buffer) =>
    JSON.parse(typeof body === 'string' ? body : body.toString('utf8'));
  const peers = await createPeerTasks(text);
  const tasks: TimedTask[] = [];
  for (const kind of KINDS) {
    const body = kind === 'string' ? text : buffer;
    const add = (name: string, fn: () => unknown) => tasks.push({ name: `${kind}:${name}`, fn });
    add('floor', () => floor(body));
    add('floorParse', () => floor(body) && parse(body));
    add('parse', () => parse(body));
    add('ours', () => verifyWebhookSync({ body, headers, secret: SECRET, now }));
    add('oursWeb', () => webVerify({ body, headers, secret: SECRET, now }));
    add('subtle', () =>
      webcrypto.subtle.sign(
        'HMAC',
        key,
        kind === 'string' ? encoder.encode(`${ts}.${text}`) : Buffer.concat([prefix, buffer]),
      ),
    );
    for (const peer of peers) {
      const fn = kind === 'string' ? peer.string : peer.buffer;
      if (fn) add(peer.name, fn);
    }
  }
  // Fail loudly rather than time an error path.
  await webVerify({ body: buffer, headers, secret: SECRET, now });
  verifyWebhookSync({ body: buffer, headers, secret: SECRET, now });
  return tasks;
}

/** Runs the verify section. */
export async function runVerifyBench(budget: MeasureBudget): Promise<SectionResult> {
  const webVerify = await loadWebVerify();
  const results = new Map<string, Map<string, number>>();
  for (const size of BODY_SIZES) {
    process.stderr.write(`verify: ${size.label}\n`);
    const times = await measureGroup(await groupFor(size.bytes, webVerify), budget);
    for (const kind of KINDS) {
      const ours = times.get(`${kind}:ours`)!;
      times.set(`${kind}:oursSignature`, Math.max(0, ours - times.get(`${kind}:parse`)!));
    }
    results.set(size.label, times);
  }
  const get = (size: string, kind: Kind, key: string) =>
    results.get(size)?.get(`${kind}:${key}`) ?? Number.NaN;
  const sections: string[] = [];
  for (const kind of KINDS) {
    const rows = ROWS.map((row) => [
      row.label,
      ...BODY_SIZES.map((size) => {
        const value = get(size.label, kind, row.key);
        if (Number.isNaN(value)) return 'n/a (string only)';
        return `${formatNs(value)} (${formatRatio(value / get(size.label, kind, 'floor'))})`;
      }),
    ]);
    sections.push(
      `#### Body as ${kind}\n\nTime per verification (ratio to the floor):\n\n${table(['implementation', ...BODY_SIZES.map((s) => s.label)], rows)}`,
    );
  }
  const targets: TargetResult[] = [];
  const check = (target: string, limit: number, kind: Kind, ratioOf: (size: string) => number) => {
    const ratios = BODY_SIZES.map((size) => ratioOf(size.label));
    targets.push({
      section: 'verify',
      target: `${target} (${kind})`,
      value: ratios
        .map((ratio, index) => `${BODY_SIZES[index]!.label}: ${formatRatio(ratio)}`)
        .join(', '),
      limit: `<= ${formatRatio(limit)} at every size`,
      pass: ratios.every((ratio) => ratio <= limit),
    });
  };
  for (const kind of KINDS) {
    check(
      'signature check / floor',
      1.1,
      kind,
      (s) => get(s, kind, 'oursSignature') / get(s, kind, 'floor'),
    );
    check(
      'full verify / (floor + JSON.parse)',
      1.1,
      kind,
      (s) => get(s, kind, 'ours') / get(s, kind, 'floorParse'),
    );
    check(
      'Web verify / bare subtle.sign',
      1.25,
      kind,
      (s) => get(s, kind, 'oursWeb') / get(s, kind, 'subtle'),
    );
  }
  const webVsParse = BODY_SIZES.map((size) => {
    const value =
      get(size.label, 'string', 'oursWeb') /
      (get(size.label, 'string', 'subtle') + get(size.label, 'string', 'parse'));
    return `${size.label}: ${formatRatio(value)}`;
  }).join(', ');
  const notes = [
    'Floor: `createHmac(sha256, secret).update(ts).update(".").update(body).digest()` + `timingSafeEqual` against the expected signature decoded once up front. JSON.parse of a Buffer is `JSON.parse(buf.toString("utf8"))`.',
    'The package exposes no signature-only function, so "signature check" is our full verify minus JSON.parse alone, both timed in the same interleaved group (the difference of two medians: noisy at small sizes).',
    `The Web verify also parses the JSON, which the bare \`subtle.sign\` does not; for reference, Web verify / (bare subtle.sign + JSON.parse), string bodies: ${webVsParse}.`,
    'Peers: stripe, svix and standardwebhooks also parse the JSON; octokit only checks the signature (string bodies only).',
  ];
  return {
    title: 'Verify cost per body size',
    markdown: `${sections.join('\n\n')}\n\n${notes.map((note) => `- ${note}`).join('\n')}`,
    targets,
  };
}
