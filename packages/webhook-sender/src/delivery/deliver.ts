/**
 * One delivery attempt: check the target, sign the exact bytes, POST them with the guarded
 * agent, never follow a redirect, read at most a capped excerpt of the answer, and say what
 * happened. State (failure counts) is not touched here.
 */
import { request } from 'undici';
import type { ResolvedSenderOptions } from '../options';
import { ConnectTargetRejectedError } from '../target/guarded-lookup';
import { checkWebhookTarget, type TargetRejection } from '../target/target-policy';
import { traceHeaders } from '../telemetry/tracing';
import type { GuardedAgents } from './agents';
import type { DeliveryFailureCause } from './failure-cause';
import { describeNetworkError } from './network-error';
import { type SigningVariant, signRequest } from './signing-variant';

/** What one HTTP attempt gave, before any state change. */
export interface AttemptOutcome {
  readonly ok: boolean;
  readonly status: number | null;
  readonly cause: DeliveryFailureCause | null;
  readonly location: string | null;
  readonly error: string | null;
  readonly rejection: TargetRejection | null;
  readonly responseExcerpt: string | null;
  readonly durationMs: number;
}

const TIMEOUT_CODES = new Set([
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
]);

function findRejection(error: unknown): TargetRejection | null {
  for (let current = error, depth = 0; current && depth < 5; depth++) {
    if (current instanceof ConnectTargetRejectedError) return current.rejection;
    current = (current as { cause?: unknown }).cause;
  }
  return null;
}

async function readExcerpt(body: AsyncIterable<Uint8Array>, cap: number): Promise<string | null> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for await (const chunk of body) {
      if (size >= cap) break;
      const part = chunk.subarray(0, cap - size);
      chunks.push(part);
      size += part.length;
    }
  } catch {
    return null; // the status already decided the outcome; a broken body only loses the excerpt
  }
  return new TextDecoder().decode(Buffer.concat(chunks));
}

/**
 * An attempt's deadline: a signal that aborts with a `TimeoutError` after `ms`, and `clear`,
 * which the attempt calls when it ends. `AbortSignal.timeout` cannot be cleared: its timer
 * lives on, held weakly, after the attempt.
 */
function startDeadline(ms: number): { signal: AbortSignal; clear: () => void } {
  const controller = new AbortController();
  const timer = setTimeout(() => {
    controller.abort(new DOMException(`timed out after ${ms} ms`, 'TimeoutError'));
  }, ms);
  timer.unref();
  return { signal: controller.signal, clear: () => clearTimeout(timer) };
}

/** Settles like `work`, or rejects when `signal` aborts first (a hung resolver included). */
function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/**
 * Sends `body` (already serialised, signed as is) to `url`; resolves with what happened.
 * `variant` breaks the signature on purpose (CLI `send`), never set by the sender itself.
 */
export async function attemptDelivery(
  url: string,
  secret: string,
  body: Uint8Array,
  options: ResolvedSenderOptions,
  agents: GuardedAgents,
  variant: SigningVariant = 'signed',
): Promise<AttemptOutcome> {
  const started = performance.now();
  const finish = (fields: Partial<AttemptOutcome>): AttemptOutcome => ({
    ok: false,
    status: null,
    cause: null,
    location: null,
    error: null,
    rejection: null,
    responseExcerpt: null,
    ...fields,
    durationMs: Math.round(performance.now() - started),
  });
  // One deadline for everything, the check-time DNS resolution included.
  const { signal, clear } = startDeadline(options.timeoutMs);
  try {
    return await attemptUntil(signal);
  } finally {
    clear();
  }

  async function attemptUntil(signal: AbortSignal): Promise<AttemptOutcome> {
    let verdict: Awaited<ReturnType<typeof checkWebhookTarget>>;
    try {
      verdict = await untilAborted(checkWebhookTarget(url, options), signal);
    } catch {
      return finish({
        cause: 'timeout',
        error: `resolving the target host took over the ${options.timeoutMs} ms timeout`,
      });
    }
    if (!verdict.allowed) {
      return finish({ cause: 'target_rejected', error: verdict.message, rejection: verdict });
    }
    const signed = signRequest(body, secret, options.now(), variant);
    try {
      const response = await request(verdict.url, {
        method: 'POST',
        headers: { ...signed.headers, 'user-agent': options.userAgent, ...traceHeaders() },
        body: signed.body,
        signal,
        dispatcher: agents.forPolicy(verdict.addressPolicy),
      });
      const status = response.statusCode;
      const location = response.headers.location;
      const responseExcerpt = await readExcerpt(response.body, options.maxResponseBodyBytes);
      if (status >= 200 && status < 300) return finish({ ok: true, status, responseExcerpt });
      if (status >= 300 && status < 400) {
        const where = Array.isArray(location) ? (location[0] ?? null) : (location ?? null);
        return finish({ status, cause: 'redirect', location: where, responseExcerpt });
      }
      return finish({ status, cause: 'http_status', responseExcerpt });
    } catch (error) {
      const rejection = findRejection(error);
      if (rejection)
        return finish({ cause: 'target_rejected', error: rejection.message, rejection });
      const code = (error as { code?: unknown }).code;
      if (signal.aborted || (typeof code === 'string' && TIMEOUT_CODES.has(code))) {
        const why = typeof code === 'string' ? ` (${code})` : '';
        return finish({
          cause: 'timeout',
          error: `no complete answer within the ${options.timeoutMs} ms timeout${why}`,
        });
      }
      return finish({ cause: 'network', error: describeNetworkError(error) });
    }
  }
}
