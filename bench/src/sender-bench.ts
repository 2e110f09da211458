/**
 * The sender: deliveries per second to a local receiver (node:http on loopback, the sender's
 * loopback opt-in on) at concurrency 50, against a bare fetch + HMAC loop sending the same
 * bodies, and against a build of the sender without its tracing (no provider registered:
 * tracing off must cost nothing), alternating rounds in one run.
 */
import { createHmac } from 'node:crypto';
import { createWebhookSender } from '@cspwatch/webhook-sender';
import type { CspwatchEvent } from '@cspwatch/webhooks';
import { createSampleAlert } from '@cspwatch/webhooks/testing';
import { startCountingReceiver } from './counting-receiver.js';
import { formatRatio, median, type SectionResult, type TargetResult, table } from './report.js';
import { buildUninstrumented, SENDER_PACKAGE } from './uninstrumented-build.js';

const CONCURRENCY = 50;
const SECRET = 'bench-sender-secret-0123456789';

/** CPU microseconds of this process per delivery of the last {@link throughput} call. */
let lastCpuPerDelivery = 0;

/** Runs `count` jobs with at most CONCURRENCY in flight; returns deliveries per second. */
async function throughput(count: number, job: (index: number) => Promise<void>): Promise<number> {
  let next = 0;
  const cpu = process.cpuUsage();
  const started = performance.now();
  const worker = async () => {
    while (next < count) {
      const index = next;
      next += 1;
      await job(index);
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  const seconds = (performance.now() - started) / 1000;
  const used = process.cpuUsage(cpu);
  lastCpuPerDelivery = (used.user + used.system) / count;
  return count / seconds;
}

/** The first and third quartiles of `ratios`, e.g. `0.97x – 1.04x`. */
function spread(ratios: readonly number[]): string {
  const sorted = [...ratios].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
  return `${formatRatio(at(0.25))} – ${formatRatio(at(0.75))}`;
}

/** Runs the sender section. */
export async function runSenderBench(quick: boolean): Promise<SectionResult> {
  const count = quick ? 300 : 3_000;
  const rounds = quick ? 1 : 3;
  const pairs = quick ? 4 : 60;
  const pairCount = quick ? 200 : 300;
  type SenderModule = { createWebhookSender: typeof createWebhookSender };
  // Both sides of the tracing-off pairs are built the same way from the same source.
  const [instrumented, uninstrumented] = (await Promise.all(
    [true, false].map(async (kept) => import(await buildUninstrumented(SENDER_PACKAGE, kept))),
  )) as [SenderModule, SenderModule];
  const receiver = await startCountingReceiver();
  const sender = createWebhookSender({ dangerouslyAllowLoopback: true });
  const tracedSender = instrumented.createWebhookSender({ dangerouslyAllowLoopback: true });
  const plainSender = uninstrumented.createWebhookSender({ dangerouslyAllowLoopback: true });
  const channel = { id: 'bench-channel', url: receiver.url, secret: SECRET };
  const alerts: CspwatchEvent[] = Array.from({ length: 64 }, () => createSampleAlert());
  const ours = async (index: number) => {
    const result = await sender.deliver(channel, alerts[index % alerts.length]!);
    if (!result.ok) throw new Error(`delivery failed: ${result.cause} ${result.error ?? ''}`);
  };
  const traced = async (index: number) => {
    const result = await tracedSender.deliver(channel, alerts[index % alerts.length]!);
    if (!result.ok) throw new Error(`delivery failed: ${result.cause} ${result.error ?? ''}`);
  };
  const plain = async (index: number) => {
    const result = await plainSender.deliver(channel, alerts[index % alerts.length]!);
    if (!result.ok) throw new Error(`delivery failed: ${result.cause} ${result.error ?? ''}`);
  };
  const bare = async (index: number) => {
    const body = JSON.stringify(alerts[index % alerts.length]);
    const timestamp = String(Date.now());
    const signature = createHmac('sha256', SECRET).update(`${timestamp}.${body}`).digest('hex');
    const response = await fetch(receiver.url, {
      method: 'POST',
      redirect: 'manual',
      headers: {
        'content-type': 'application/json',
        'x-cspwatch-timestamp': timestamp,
        'x-cspwatch-signature': `sha256=${signature}`,
      },
      body,
    });
    await response.arrayBuffer();
    if (response.status !== 204) throw new Error(`receiver answered ${response.status}`);
  };
  try {
    await throughput(200, ours); // warm-up: connections, JIT
    await throughput(200, traced);
    await throughput(200, plain);
    await throughput(200, bare);
    const oursRates: number[] = [];
    const bareRates: number[] = [];
    for (let round = 0; round < rounds; round += 1) {
      oursRates.push(await throughput(count, ours));
      bareRates.push(await throughput(count, bare));
    }
    // Tracing off: many short pairs, instrumented and uninstrumented back to back in
    // alternating order, so that drift of a shared machine hits both sides of each pair alike.
    const plainRates: number[] = [];
    const cpuRatios: number[] = [];
    const wallRatios: number[] = [];
    for (let pairIndex = 0; pairIndex < pairs; pairIndex += 1) {
      const order = pairIndex % 2 === 0 ? [traced, plain] : [plain, traced];
      const measured = new Map<unknown, { rate: number; cpu: number }>();
      for (const loop of order) {
        const rate = await throughput(pairCount, loop);
        measured.set(loop, { rate, cpu: lastCpuPerDelivery });
      }
      const withTracing = measured.get(traced)!;
      const without = measured.get(plain)!;
      plainRates.push(without.rate);
      cpuRatios.push(withTracing.cpu / without.cpu);
      wallRatios.push(without.rate / withTracing.rate);
    }
    const expected = 800 + 2 * rounds * count + 2 * pairs * pairCount;
    if (receiver.received() !== expected) {
      throw new Error(`receiver got ${receiver.received()} deliveries, expected ${expected}`);
    }
    const oursRate = median(oursRates);
    const bareRate = median(bareRates);
    const ratio = oursRate / bareRate;
    const cpuRatio = median(cpuRatios);
    const wallRatio = median(wallRatios);
    const targets: TargetResult[] = [
      {
        section: 'sender',
        target:
          'tracing off: CPU per `sender.deliver`, instrumented / uninstrumented build (paired rounds)',
        value: formatRatio(cpuRatio),
        limit: '<= 1.03x',
        pass: cpuRatio <= 1.03,
      },
      {
        section: 'sender',
        target: `deliveries/s at concurrency ${CONCURRENCY} / bare fetch + HMAC loop`,
        value: formatRatio(ratio),
        limit: '>= 0.80x',
        pass: ratio >= 0.8,
      },
    ];
    const rows = [
      ['ours: `sender.deliver(channel, alert)`', oursRate.toFixed(0), formatRatio(ratio)],
      ['bare: JSON.stringify + createHmac + fetch', bareRate.toFixed(0), '1.00x'],
      [
        'ours, esbuild copy without its tracing module (no-op stub)',
        median(plainRates).toFixed(0),
        formatRatio(median(plainRates) / bareRate),
      ],
    ];
    const offRows = [
      ['CPU per delivery', formatRatio(cpuRatio), spread(cpuRatios)],
      ['time per delivery (wall)', formatRatio(wallRatio), spread(wallRatios)],
    ];
    const notes = [
      `${count.toLocaleString('en')} deliveries per round, ${rounds} alternating round(s) after a warm-up of 200 each; median shown. Receiver: node:http on 127.0.0.1 answering 204.`,
      'Ours also runs the target policy on every delivery, counts the outcome in the in-memory state store and reads a capped excerpt of the response.',
      `Tracing off: \`@opentelemetry/api\` is installed and no tracer provider is registered (its no-op tracer answers); both sides are the same source bundled the same way with esbuild, one of them with \`src/telemetry/tracing.ts\` replaced by a no-op stub (src/uninstrumented-build.ts), so the tracing module is the only difference. Ratios are instrumented / uninstrumented: ${pairs} pairs of ${pairCount.toLocaleString('en')} deliveries each, the two back to back in alternating order; median of the pairs' ratios shown.`,
    ];
    return {
      title: 'Sender: delivery throughput',
      markdown: `${table(['loop', 'deliveries/s (median)', 'ratio'], rows)}\n\n${table(['tracing off: instrumented / uninstrumented', 'median', 'quartiles of the pairs'], offRows)}\n\n${notes.map((n) => `- ${n}`).join('\n')}`,
      targets,
    };
  } finally {
    await sender.close();
    await tracedSender.close();
    await plainSender.close();
    await new Promise((resolve) => receiver.server.close(resolve));
  }
}
