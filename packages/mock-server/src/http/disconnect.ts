/**
 * When the client of a request goes away. A transport may register a signal of its own
 * for a request it built: the node adapter does, because passing a `signal` to the
 * `Request` constructor made undici link two signals per request, which cost the list
 * endpoint about a fifth of its time under load (bench section mock-speed); it also makes
 * the signal only for the few requests that wait (latency fault, hanging inbox). Every other
 * request (msw, a test calling `service.fetch`) uses its own `request.signal`.
 */
const SIGNALS = new WeakMap<Request, () => AbortSignal>();

/** Registers how to get the signal that aborts when `request`'s client disconnects (made on first use). */
export function setDisconnectSignal(request: Request, signal: () => AbortSignal): void {
  SIGNALS.set(request, signal);
}

/** The signal that aborts when `request`'s client disconnects. */
export function disconnectSignal(request: Request): AbortSignal {
  return SIGNALS.get(request)?.() ?? request.signal;
}
