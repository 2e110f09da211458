/**
 * The tasks of one verify cell (a body size and kind): the node:crypto floor (+ JSON.parse),
 * our Node and Web Crypto calls, the bare `crypto.subtle.sign` reference (+ JSON.parse) and
 * the peers, each checked to accept its valid delivery (and ours to reject a tampered one)
 * before anything is timed; and the ratio targets judged in every cell.
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
import { alertBody } from './bodies.js';
import type { Clock, RatioTarget } from './judge.js';
import type { TimedTask } from './measure.js';

/** The Web Crypto build's verify functions. */
export type WebBuild = Pick<
  typeof import('@cspwatch/webhooks/node'),
  'verifyWebhook' | 'verifyWebhookSignature'
>;

const SECRET = 'bench-secret-0123456789abcdef';

/** The body kinds of the verify benchmark. */
export const KINDS = ['string', 'Buffer'] as const;
/** A body kind: the body passed as a string or as a Buffer. */
export type Kind = (typeof KINDS)[number];

/** A ratio target with the label the report prints. */
export interface LabelledTarget extends RatioTarget {
  label: string;
}

/**
 * The clock every target is judged on: wall time. The report prints the CPU-time ratio of the
 * same rounds too. With a forced GC before every batch (the old harness) two quiet runs agreed
 * on more cells in wall time (21 of 24) than in CPU time (16), which billed the compiler
 * threads re-optimising after each GC; without those GCs the two clocks agree about as well.
 */
const CLOCK: Clock = 'wall';

/** Tasks timed together and the targets judged on them. */
export interface TargetGroup {
  tasks: readonly string[];
  targets: LabelledTarget[];
  /**
   * Rounds of this group per pass, as a multiple of the pass budget's. Web Crypto's wall time
   * includes a hand-off to libuv's thread pool, so its per-round ratios spread about three times
   * wider than the Node ones; more rounds narrow the interval for little time (two short tasks).
   */
  roundsFactor: number;
}

/**
 * The target groups: the tasks timed together and the targets judged on them. Each target is
 * judged in a small group of its own tasks, so the two sides of a ratio run back to back, not
 * ten peers apart.
 */
export const TARGET_GROUPS: readonly TargetGroup[] = [
  {
    tasks: ['floor', 'oursSig', 'floorParse', 'ours'],
    roundsFactor: 1,
    targets: [
      {
        label: 'Node signature check (verifyWebhookSignatureSync) / floor',
        numerator: 'oursSig',
        denominator: 'floor',
        limit: 1.1,
        clock: CLOCK,
      },
      {
        label: 'Node full verify (verifyWebhookSync) / (floor + JSON.parse)',
        numerator: 'ours',
        denominator: 'floorParse',
        limit: 1.1,
        clock: CLOCK,
      },
    ],
  },
  {
    tasks: ['subtle', 'webSig'],
    roundsFactor: 3,
    targets: [
      {
        label: 'Web signature check (verifyWebhookSignature) / bare subtle.sign',
        numerator: 'webSig',
        denominator: 'subtle',
        limit: 1.25,
        clock: CLOCK,
      },
    ],
  },
];

/**
 * The Web Crypto build: the default entry's non-`node` target (`exports['.'].import.default`,
 * i.e. `dist/index.js`), imported by file path, because on Node the package name resolves to
 * the node:crypto build. Checked to be that build: no sync exports, no node:crypto import.
 */
export async function loadWebBuild(): Promise<{ web: WebBuild; file: string }> {
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
 * Every task of one cell: a body of `bytes` bytes passed as `kind`; the peers' tasks only
 * `withPeers` (the table's process).
 */
export async function cellTasks(
  bytes: number,
  kind: Kind,
  web: WebBuild,
  withPeers: boolean,
): Promise<TimedTask[]> {
  const text = alertBody(bytes);
  const body = kind === 'string' ? text : Buffer.from(text);
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
  const floor = () =>
    timingSafeEqual(
      createHmac('sha256', SECRET).update(ts).update('.').update(body).digest(),
      expected,
    );
  // The reference parse: a Buffer is decoded with buf.toString('utf8') first.
  const parse = () => JSON.parse(typeof body === 'string' ? body : body.toString('utf8'));
  // The least a Web verifier must do with this input: `<ts>.<body>` as bytes, then sign.
  const subtle = () =>
    webcrypto.subtle.sign(
      'HMAC',
      key,
      typeof body === 'string' ? encoder.encode(`${ts}.${body}`) : Buffer.concat([prefix, body]),
    );
  const options = { body, headers, secret: SECRET, now };
  const tasks: TimedTask[] = [];
  const add = (name: string, fn: () => unknown) => tasks.push({ name, fn });
  add('floor', floor);
  add('floorParse', () => floor() && parse());
  add('oursSig', () => verifyWebhookSignatureSync(options));
  add('ours', () => verifyWebhookSync(options));
  add('webSig', () => web.verifyWebhookSignature(options));
  add('web', () => web.verifyWebhook(options));
  add('subtle', subtle);
  add('subtleParse', async () => (await subtle()) && parse());
  // The peers' libraries are loaded only where they are timed: loaded in a process, stripe's
  // alone moved our signature check from ~1.0x to 1.04x-1.39x of the floor at 256 B (a probe,
  // 2026-11-23), which has nothing to do with our code.
  const peers = withPeers ? await (await import('./peers.js')).createPeerTasks(text) : [];
  for (const peer of peers) {
    const fn = kind === 'string' ? peer.string : peer.buffer;
    if (fn) add(peer.name, fn);
  }
  // Fail loudly rather than time an error path; the Web key cache is filled here.
  if (!floor()) throw new Error('the floor rejected its own signature');
  verifyWebhookSync(options);
  verifyWebhookSignatureSync(options);
  await web.verifyWebhook(options);
  await web.verifyWebhookSignature(options);
  const tampered = { ...options, body: typeof body === 'string' ? `${text} ` : body.subarray(1) };
  const rejected = await web.verifyWebhookSignature(tampered).then(
    () => false,
    () => true,
  );
  if (!rejected) throw new Error('the Web build accepted a tampered body');
  return tasks;
}
