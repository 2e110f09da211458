/**
 * The sender: deliveries per second to a local receiver (node:http on loopback, the sender's
 * loopback opt-in on) at concurrency 50, against a bare fetch + HMAC loop sending the same
 * bodies, alternating rounds in one run.
 */
import { createHmac } from 'node:crypto';
import { createWebhookSender } from '@cspwatch/webhook-sender';
import type { CspwatchEvent } from '@cspwatch/webhooks';
import { createSampleAlert } from '@cspwatch/webhooks/testing';
import { startCountingReceiver } from './counting-receiver.js';
import { formatRatio, median, type SectionResult, type TargetResult, table } from './report.js';

const CONCURRENCY = 50;
const SECRET = 'bench-sender-secret-0123456789';

/** Runs `count` jobs with at most CONCURRENCY in flight; returns deliveries per second. */
async function throughput(count: number, job: (index: number) => Promise<void>): Promise<number> {
  let next = 0;
  const started = performance.now();
  const worker = async () => {
    while (next < count) {
      const index = next;
      next += 1;
      await job(index);
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  return count / ((performance.now() - started) / 1000);
}

/** Runs the sender section. */
export async function runSenderBench(quick: boolean): Promise<SectionResult> {
  const count = quick ? 300 : 3_000;
  const rounds = quick ? 1 : 3;
  const receiver = await startCountingReceiver();
  const sender = createWebhookSender({ dangerouslyAllowLoopback: true });
  const channel = { id: 'bench-channel', url: receiver.url, secret: SECRET };
  const alerts: CspwatchEvent[] = Array.from({ length: 64 }, () => createSampleAlert());
  const ours = async (index: number) => {
    const result = await sender.deliver(channel, alerts[index % alerts.length]!);
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
    await throughput(200, bare);
    const oursRates: number[] = [];
    const bareRates: number[] = [];
    for (let round = 0; round < rounds; round += 1) {
      oursRates.push(await throughput(count, ours));
      bareRates.push(await throughput(count, bare));
    }
    const expected = 400 + 2 * rounds * count;
    if (receiver.received() !== expected) {
      throw new Error(`receiver got ${receiver.received()} deliveries, expected ${expected}`);
    }
    const oursRate = median(oursRates);
    const bareRate = median(bareRates);
    const ratio = oursRate / bareRate;
    const targets: TargetResult[] = [
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
    ];
    const notes = [
      `${count.toLocaleString('en')} deliveries per round, ${rounds} alternating round(s) after a warm-up of 200 each; median shown. Receiver: node:http on 127.0.0.1 answering 204.`,
      'Ours also runs the target policy on every delivery, counts the outcome in the in-memory state store and reads a capped excerpt of the response.',
    ];
    return {
      title: 'Sender: delivery throughput',
      markdown: `${table(['loop', 'deliveries/s (median)', 'ratio'], rows)}\n\n${notes.map((n) => `- ${n}`).join('\n')}`,
      targets,
    };
  } finally {
    await sender.close();
    await new Promise((resolve) => receiver.server.close(resolve));
  }
}
