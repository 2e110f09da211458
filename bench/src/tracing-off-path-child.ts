/**
 * The tracing-off path of one delivery, alone, `iterations` times: what the queue's and the
 * sender's tracing modules do for a job when no tracer provider is registered (the process
 * span, the attempt span, the trace headers, the outcome notes), around work that does nothing.
 * Run under callgrind by src/tracing-off-bench.ts with each build of the two modules; the
 * difference of the two counts is the instructions the instrumentation adds per delivery.
 *
 * Usage: node --import tsx tracing-off-path-child.ts <queue tracing module> <sender tracing module> <iterations>
 */
interface QueueTracingModule {
  createQueueTracing(
    queueName: string,
    provider: undefined,
  ): {
    process<T>(job: unknown, run: () => Promise<T>): Promise<T>;
  };
  noteAttemptOutcome(ok: boolean, cause: string | null): void;
}
interface SenderTracingModule {
  createSenderTracing(provider: undefined): {
    startAttempt(
      channel: { id: string; url: string },
      alertId: string,
      test: boolean,
    ): {
      run<T>(send: () => Promise<T>): Promise<T>;
      noteState(state: { consecutiveFailures: number; disabledNow: boolean }): void;
      end(): void;
    };
  };
  traceHeaders(): Readonly<Record<string, string>>;
}

const [queuePath, senderPath, count] = process.argv.slice(2);
const q = (await import(queuePath!)) as QueueTracingModule;
const s = (await import(senderPath!)) as SenderTracingModule;
const queue = q.createQueueTracing('deliveries', undefined);
const sender = s.createSenderTracing(undefined);
const job = {
  id: '1',
  attemptsMade: 0,
  data: { channelId: 'channel-0', alert: { id: 'alert-0' }, priorAttempts: 0 },
};
const channel = { id: 'channel-0', url: 'http://127.0.0.1:9/hooks/cspwatch' };
const outcome = { ok: true, status: 204, cause: null };
const state = { consecutiveFailures: 0, disabledNow: false };

async function delivery() {
  return queue.process(job, async () => {
    const span = sender.startAttempt(channel, 'alert-0', false);
    try {
      const result = await span.run(async () => (s.traceHeaders() ? outcome : outcome));
      q.noteAttemptOutcome(result.ok, result.cause);
      span.noteState(state);
      return result;
    } finally {
      span.end();
    }
  });
}

for (let i = 0; i < Number(count); i += 1) await delivery();
