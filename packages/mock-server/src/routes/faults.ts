import { disconnectSignal } from '../http/disconnect';
import { problem } from '../http/problem';
import type { ResolvedFaults } from '../rules/faults';
import { createPrng, type Prng } from '../store/prng';

/** Waits `ms`, or less if the request is aborted; the timer never outlives the request. */
function delay(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const done = (): void => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done);
  });
}

/** Decides, per REST request, which injected fault (if any) answers it. */
export class FaultInjector {
  #faults: ResolvedFaults;
  #requests = 0;
  #prng: Prng;
  readonly #seed: number;

  /** Starts with the given settings; the dice are seeded. */
  constructor(faults: ResolvedFaults, seed: number) {
    this.#faults = faults;
    this.#seed = seed;
    this.#prng = createPrng(seed);
  }

  /** Replaces the fault settings, restarts the request count and the dice. */
  configure(faults: ResolvedFaults): void {
    this.#faults = faults;
    this.#requests = 0;
    this.#prng = createPrng(this.#seed);
  }

  /** The current settings. */
  get settings(): ResolvedFaults {
    return { ...this.#faults };
  }

  /**
   * Applies latency, then returns the fault response for this request: a dropped
   * connection (`Response.error()`), a `429`, a 5xx; or `undefined` to serve it normally.
   */
  async apply(request: Request): Promise<Response | undefined> {
    const faults = this.#faults;
    this.#requests++;
    if (faults.latencyMs > 0) await delay(faults.latencyMs, disconnectSignal(request));
    if (faults.dropConnectionRate > 0 && this.#prng.next() < faults.dropConnectionRate)
      return Response.error();
    if (faults.rateLimitEvery > 0 && this.#requests % faults.rateLimitEvery === 0) {
      return problem({
        status: 429,
        code: 'rate_limited',
        detail: `Too many requests; retry after ${faults.retryAfterSeconds} s.`,
        headers: { 'retry-after': String(faults.retryAfterSeconds) },
      });
    }
    if (faults.serverErrorRate > 0 && this.#prng.next() < faults.serverErrorRate) {
      return problem({
        status: faults.serverErrorStatus,
        code: 'server_error',
        detail: 'Injected server error; retry later.',
      });
    }
    return undefined;
  }
}
