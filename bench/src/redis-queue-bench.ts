/**
 * The Redis delivery queue: deliveries per second through BullMQ with 1 and 2 worker
 * processes (concurrency 50 each) to a local receiver, against the in-process
 * `sender.deliver` loop at concurrency 50, and the Redis round trips one delivery costs.
 */
import { type ChildProcess, fork } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createDeliveryQueue, type DeliveryQueue } from '@cspwatch/redis/queue';
import { createWebhookSender } from '@cspwatch/webhook-sender';
import { createSampleAlert } from '@cspwatch/webhooks/testing';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { startRedisServer } from '../../packages/redis/test/helpers/redis-server.js';
import { startCountingReceiver } from './counting-receiver.js';
import { formatRatio, median, type SectionResult, table } from './report.js';

const CONCURRENCY = 50;
const SECRET = 'bench-queue-secret-0123456789';
const here = dirname(fileURLToPath(import.meta.url));

async function until(what: string, check: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

function startWorker(env: Record<string, string>): Promise<ChildProcess> {
  const child = fork(join(here, 'redis-worker-child.ts'), [], {
    execArgv: ['--import', 'tsx'],
    env: { ...process.env, ...env },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('bench worker not ready in 30 s')), 30_000);
    child.once('message', () => {
      clearTimeout(timer);
      resolve(child);
    });
    child.once('exit', (code) => reject(new Error(`bench worker exited (${code})`)));
  });
}

async function stopWorker(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

/** Sum of `calls` in INFO commandstats (every command Redis ran, script-internal ones too). */
async function commandCount(redis: Redis): Promise<number> {
  const info = await redis.info('commandstats');
  return [...info.matchAll(/calls=(\d+)/g)].reduce((sum, match) => sum + Number(match[1]), 0);
}

/** CPU seconds a worker process has used, asked over IPC. */
function workerCpuSeconds(child: ChildProcess): Promise<number> {
  return new Promise((resolve) => {
    const onMessage = (message: unknown) => {
      const micros = (message as { cpuMicros?: number } | null)?.cpuMicros;
      if (typeof micros !== 'number') return;
      child.off('message', onMessage);
      resolve(micros / 1e6);
    };
    child.on('message', onMessage);
    child.send('cpu');
  });
}

/** CPU seconds of this process (the receiver, in the queue runs). */
const ownCpuSeconds = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1e6;
};

/** CPU seconds redis-server has used (user + system), from INFO cpu. */
async function redisCpuSeconds(redis: Redis): Promise<number> {
  const info = await redis.info('cpu');
  const read = (name: string) => Number(new RegExp(`${name}:([\\d.]+)`).exec(info)?.[1] ?? 0);
  return read('used_cpu_user') + read('used_cpu_sys');
}

/** Commands sent by clients (not from scripts), counting a MULTI…EXEC block as one, via MONITOR. */
async function countRoundTrips(url: string, work: () => Promise<void>): Promise<number> {
  const client = new Redis(url);
  const monitor = await client.monitor();
  const inMulti = new Set<string>();
  let roundTrips = 0;
  monitor.on('monitor', (_time: string, args: string[], source: string) => {
    if (source === 'lua') return;
    const command = args[0]?.toLowerCase();
    if (command === 'multi') inMulti.add(source);
    else if (command === 'exec') inMulti.delete(source);
    if (!inMulti.has(source) || command === 'multi') roundTrips += 1;
  });
  try {
    await work();
  } finally {
    monitor.disconnect();
    client.disconnect();
  }
  return roundTrips;
}

/** Runs the Redis queue section. */
export async function runRedisQueueBench(quick: boolean): Promise<SectionResult> {
  const count = quick ? 400 : 6_000;
  const rounds = quick ? 1 : 3;
  // A fresh worker process spends up to twice the CPU per delivery on its first few thousand
  // deliveries (JIT, heap growth) as later: each worker (and the loop, once) warms up first.
  const warmPerWorker = quick ? 100 : 3_000;
  const redisServer = await startRedisServer();
  const receiver = await startCountingReceiver();
  const admin = new Redis(redisServer.url);
  const channel = { id: 'bench-channel', url: receiver.url, secret: SECRET };
  const alerts = Array.from({ length: 64 }, () => createSampleAlert());
  let run = 0;

  /**
   * Fills a paused queue, starts `workers` processes, resumes; once they delivered their
   * warm-up share, times and measures until all arrived (no warm-up when `measure` is given).
   */
  const queueRun = async (
    workers: number,
    deliveries: number,
    measure?: (work: () => Promise<void>) => Promise<number>,
  ) => {
    const warm = measure ? 0 : warmPerWorker * workers;
    const total = warm + deliveries;
    const queueName = `bench-${++run}`;
    const queue: DeliveryQueue = createDeliveryQueue({
      connection: redisServer.url,
      queueName,
      commandTimeoutMs: 30_000,
    });
    const control = new Queue(queueName, {
      connection: { host: '127.0.0.1', port: redisServer.port },
      prefix: 'cspwatch',
    });
    const children: ChildProcess[] = [];
    try {
      await control.pause();
      for (let start = 0; start < total; start += 500) {
        await Promise.all(
          Array.from({ length: Math.min(500, total - start) }, (_, i) =>
            queue.enqueue(channel.id, {
              ...alerts[(start + i) % alerts.length]!,
              id: crypto.randomUUID(),
            }),
          ),
        );
      }
      const env = {
        REDIS_URL: redisServer.url,
        QUEUE_NAME: queueName,
        CHANNEL: JSON.stringify(channel),
        CONCURRENCY: String(CONCURRENCY),
      };
      children.push(
        ...(await Promise.all(Array.from({ length: workers }, () => startWorker(env)))),
      );
      const receivedBefore = receiver.received();
      const arrived = () => receiver.received() - receivedBefore;
      const timed = async () => {
        if (warm === 0) await control.resume();
        await until('the deliveries', () => arrived() >= total, 120_000);
      };
      const cpuParts = async () => ({
        workers: (await Promise.all(children.map(workerCpuSeconds))).reduce((a, b) => a + b, 0),
        redis: await redisCpuSeconds(admin),
        receiver: ownCpuSeconds(),
      });
      if (warm > 0) {
        await control.resume();
        await until('the warm-up', () => arrived() >= warm, 120_000);
      }
      const before = await cpuParts();
      const started = performance.now();
      const arrivedBefore = arrived();
      let extra = 0;
      if (measure) extra = await measure(timed);
      else await timed();
      const seconds = (performance.now() - started) / 1000;
      const after = await cpuParts();
      const measured = arrived() - arrivedBefore;
      const per = (part: keyof typeof before) => (after[part] - before[part]) / measured;
      const redisBusy = (after.redis - before.redis) / seconds;
      const split = { workers: per('workers'), redis: per('redis'), receiver: per('receiver') };
      const cpuPerDelivery = split.workers + split.redis + split.receiver;
      return { rate: measured / seconds, extra, redisBusy, cpuPerDelivery, split };
    } finally {
      await Promise.all(children.map(stopWorker));
      await control.close();
      await queue.close();
    }
  };

  try {
    const sender = createWebhookSender({ dangerouslyAllowLoopback: true });
    const inProcess = async (count: number) => {
      let next = 0;
      const started = performance.now();
      const cpuBefore = ownCpuSeconds();
      await Promise.all(
        Array.from({ length: CONCURRENCY }, async () => {
          while (next < count) {
            const index = next++;
            const result = await sender.deliver(channel, alerts[index % alerts.length]!);
            if (!result.ok) throw new Error(`delivery failed: ${result.cause}`);
          }
        }),
      );
      const cpuPerDelivery = (ownCpuSeconds() - cpuBefore) / count;
      return { rate: count / ((performance.now() - started) / 1000), cpuPerDelivery };
    };
    await queueRun(1, 200); // warm-up: Redis scripts, connections
    await inProcess(warmPerWorker); // warm-up of the loop, as each worker gets
    const one: number[] = [];
    const two: number[] = [];
    const local: number[] = [];
    const busy: number[][] = [[], []];
    const cpu: number[][] = [[], [], []];
    const splits: { workers: number; redis: number; receiver: number }[] = [];
    const twoSplits: { workers: number; redis: number; receiver: number }[] = [];
    for (let round = 0; round < rounds; round++) {
      const oneRun = await queueRun(1, count);
      const twoRun = await queueRun(2, count);
      one.push(oneRun.rate);
      two.push(twoRun.rate);
      busy[0]!.push(oneRun.redisBusy);
      busy[1]!.push(twoRun.redisBusy);
      const localRun = await inProcess(count);
      local.push(localRun.rate);
      cpu[0]!.push(localRun.cpuPerDelivery);
      cpu[1]!.push(oneRun.cpuPerDelivery);
      cpu[2]!.push(twoRun.cpuPerDelivery);
      splits.push(oneRun.split);
      twoSplits.push(twoRun.split);
    }
    await sender.close();
    const sample = 200;
    const commandsBefore = await commandCount(admin);
    const { extra: roundTrips } = await queueRun(1, sample, (work) =>
      countRoundTrips(redisServer.url, work),
    );
    const commands = (await commandCount(admin)) - commandsBefore;
    const [oneRate, twoRate, localRate] = [median(one), median(two), median(local)];
    // Targets from paired ratios (runs of the same round), less sensitive to a noisy neighbour.
    const scale = median(two.map((rate, round) => rate / one[round]!));
    const versusLocal = median(one.map((rate, round) => rate / local[round]!));
    const micros = (values: number[]) => `${(median(values) * 1e6).toFixed(0)} µs`;
    const splitText = (parts: typeof splits) =>
      `worker process(es) ${micros(parts.map((x) => x.workers))}, redis-server ${micros(parts.map((x) => x.redis))}, receiver ${micros(parts.map((x) => x.receiver))}`;
    // CPU ceilings (deliveries/s), per round: one worker is one JS thread, so it delivers about
    // 1 s of CPU over its CPU per delivery (redis-server and the receiver share the other
    // cores); two workers share every core with redis-server and the receiver.
    const cores = availableParallelism();
    const oneCeilings = splits.map((x) =>
      Math.min(1 / x.workers, (cores - 1) / (x.redis + x.receiver)),
    );
    const twoCeilings = cpu[2]!.map((total) => cores / total);
    const busyCores = (rates: number[], mode: number) =>
      median(rates.map((rate, round) => rate * cpu[mode]![round]!)).toFixed(2);
    const rows = [
      [
        'in-process `sender.deliver` loop (no Redis)',
        localRate.toFixed(0),
        '1.00x',
        micros(cpu[0]!),
      ],
      ['queue, 1 worker process', oneRate.toFixed(0), formatRatio(versusLocal), micros(cpu[1]!)],
      [
        'queue, 2 worker processes',
        twoRate.toFixed(0),
        formatRatio(twoRate / localRate),
        micros(cpu[2]!),
      ],
    ];
    const notes = [
      `${count.toLocaleString('en')} deliveries per run, ${rounds} alternating round(s), median rates shown; the targets use the median of per-round ratios; concurrency ${CONCURRENCY} per worker and in the loop. Receiver: node:http on 127.0.0.1 answering 204; Redis: a private redis-server without persistence.`,
      `Queue runs: the jobs are enqueued into a paused queue (not timed), the workers start, and after resume each first delivers a warm-up of ${warmPerWorker.toLocaleString('en')} (a fresh worker process spends up to twice the CPU per delivery on its first few thousand deliveries, JIT and heap growth, while the loop runs in the long-lived bench process; the loop gets the same warm-up once); the clock and the CPU figures then run until the receiver has the rest. Each delivery also reads and writes the shared channel state and appends a history entry.`,
      'CPU per delivery: user + system time of every process taking part (the worker processes, redis-server, and this process, which runs the receiver; for the loop, this process alone) divided by the deliveries: a figure that other load on the machine does not change much, unlike deliveries/s.',
      `Where the CPU of a delivery goes (medians): with 1 worker, ${splitText(splits)}; with 2 workers, ${splitText(twoSplits)}.`,
      `What bounds the ratios on ${cores} cores (CPU ceilings from the figures above, medians): 1 worker process is one JS thread, so it delivers about 1 s / its CPU per delivery (a little more: its GC and kernel work run beside that thread), with redis-server and the receiver on the other ${cores - 1} core(s): about ${median(oneCeilings).toFixed(0)}/s, ${formatRatio(median(oneCeilings.map((c, round) => c / local[round]!)))} of the measured loop; 2 workers share the ${cores} cores with redis-server and the receiver: at most ${cores} s / the CPU per delivery of all processes, ${median(twoCeilings).toFixed(0)}/s, ${formatRatio(median(twoCeilings.map((c, round) => c / oneCeilings[round]!)))} of the 1-worker ceiling. Ratios of ceilings above a target's limit mean the cores allow it; below, no spreading of the load can reach it on this machine.`,
      `Cores busy (CPU seconds of the processes taking part per second of the run, medians): loop ${busyCores(local, 0)}, 1 worker ${busyCores(one, 1)}, 2 workers ${busyCores(two, 2)}. Where 2 workers keep fewer than ${cores} cores busy, something else on the machine (or waiting) set the pace, and the ceiling above is out of reach too.`,
      `redis-server CPU while delivering (INFO cpu, share of one core): ${(100 * median(busy[0]!)).toFixed(0)} % with 1 worker, ${(100 * median(busy[1]!)).toFixed(0)} % with 2.`,
      `Redis cost per delivery, from a separate ${sample}-delivery run with 1 worker: ${(roundTrips / sample).toFixed(1)} client round trips from resume to the last delivery (commands sent, a MULTI…EXEC block counted once, from MONITOR; the enqueue before adds one) and ${(commands / sample).toFixed(1)} commands executed (INFO commandstats over the whole run, enqueue and worker start included, script-internal ones too).`,
    ];
    return {
      title: 'Redis delivery queue: throughput across worker processes',
      markdown: `${table(['loop', 'deliveries/s (median)', 'ratio', 'CPU per delivery (all processes)'], rows)}\n\n${notes.map((n) => `- ${n}`).join('\n')}`,
      targets: [
        {
          section: 'redis',
          target: 'deliveries/s, 2 worker processes / 1',
          value: formatRatio(scale),
          limit: '>= 1.60x',
          pass: scale >= 1.6,
        },
        {
          section: 'redis',
          target: `deliveries/s, 1 worker / in-process sender.deliver at concurrency ${CONCURRENCY}`,
          value: formatRatio(versusLocal),
          limit: '>= 0.70x',
          pass: versusLocal >= 0.7,
        },
        {
          section: 'redis',
          target: 'Redis round trips per delivery (for information)',
          value: (roundTrips / sample).toFixed(1),
          limit: 'reported',
          pass: true,
        },
      ],
    };
  } finally {
    admin.disconnect();
    await new Promise((resolve) => receiver.server.close(resolve));
    await redisServer.stop();
  }
}
