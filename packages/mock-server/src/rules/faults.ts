/**
 * The fault settings, written once: their bounds, their defaults (every fault off) and the
 * types users see. `createMockService({ faults })`, `setFaults` and `PUT /_mock/faults` all
 * check with these rules.
 */
import { z } from 'zod';
import { integer, share } from './fields';

/** Each fault setting with its bounds and default. */
export const faultFields = {
  /** Milliseconds added before every REST response. @default 0 */
  latencyMs: integer({ min: 0, max: 60_000, unit: 'ms' }).default(0),
  /** Answer every Nth REST request with `429` (counting all REST requests); 0 turns it off. @default 0 */
  rateLimitEvery: integer({ min: 0, max: 1_000_000 }).default(0),
  /** Seconds sent in `Retry-After` with an injected `429`. @default 1 */
  retryAfterSeconds: integer({ min: 0, max: 86_400, unit: 's' }).default(1),
  /** Share of REST requests (0 to 1) answered with `serverErrorStatus`. @default 0 */
  serverErrorRate: share.default(0),
  /** Status of injected server errors, 500 to 599. @default 503 */
  serverErrorStatus: integer({ min: 500, max: 599 }).default(503),
  /** Share of REST requests (0 to 1) whose connection is dropped without an answer. @default 0 */
  dropConnectionRate: share.default(0),
};

/** The fault settings as a body: an unknown field is refused, an absent one takes its default. */
export const FaultsSchema = z.strictObject(faultFields);

/**
 * Fault injection for clients' resilience tests; every fault is off by default. Faults apply
 * to the REST API (`/v1/...`) only, never to the webhook inbox.
 * @interface
 */
export type MockFaultOptions = z.input<typeof FaultsSchema>;

/** {@link MockFaultOptions} with every default applied. */
export type ResolvedFaults = z.output<typeof FaultsSchema>;
