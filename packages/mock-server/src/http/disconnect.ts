/**
 * When the client of a request goes away. A transport may register a signal of its own
 * for a request it built: the node adapter does, because a `signal` given to the `Request`
 * constructor makes undici link two signals per request (bench/RESULTS.md, "Speed tricks
 * kept"), and so it makes the signal only for the few requests that wait (latency fault,
 * hanging inbox). Every other request (msw, a test calling `service.fetch`) uses its own
 * `request.signal`.
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
