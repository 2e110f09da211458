import { redactUrls } from '@cspwatch/contract';
import { MockServerError } from './errors';
import type { MockTracerProvider } from './telemetry/tracing';

/** Fault injection for clients' resilience tests; every fault is off by default. Faults apply to the REST API (`/v1/...`) only, never to the webhook inbox. */
export interface MockFaultOptions {
  /** Milliseconds added before every REST response. @default 0 */
  latencyMs?: number;
  /** Answer every Nth REST request with `429` (counting all REST requests); 0 turns it off. @default 0 */
  rateLimitEvery?: number;
  /** Seconds sent in `Retry-After` with an injected `429`. @default 1 */
  retryAfterSeconds?: number;
  /** Share of REST requests (0 to 1) answered with {@link MockFaultOptions.serverErrorStatus}. @default 0 */
  serverErrorRate?: number;
  /** Status of injected server errors, 500 to 599. @default 503 */
  serverErrorStatus?: number;
  /** Share of REST requests (0 to 1) whose connection is dropped without an answer. @default 0 */
  dropConnectionRate?: number;
}

/** Options of {@link createMockService}. */
export interface MockServiceOptions {
  /** Seed of the deterministic fixtures and fault dice: the same seed gives the same ids, tokens and keys. @default 1 */
  seed?: number;
  /** API keys seeded in the main workspace. @default 60 */
  apiKeyCount?: number;
  /** Website limit of the main workspace's plan. @default 10 */
  websiteLimit?: number;
  /** Fault injection, all off by default. */
  faults?: MockFaultOptions;
  /** Origin the service is reached at, used to build inbox channel URLs. @default 'http://localhost' */
  baseUrl?: string;
  /**
   * When set, every control API request (`/_mock/…`) must carry it as
   * `Authorization: Bearer <controlToken>` (16 to 200 visible characters).
   * `startMockServer` sets a random one when bound beyond loopback.
   * @default undefined (no token: the control API is open to whoever reaches the service)
   */
  controlToken?: string;
  /**
   * Lets the service's webhook channels (the alert flow) deliver to loopback addresses
   * over plain `http:`, e.g. a test's receiver on 127.0.0.1. The sender's target policy
   * refuses them otherwise, as the real service does. For local testing only.
   * @default false
   */
  dangerouslyAllowLoopbackWebhooks?: boolean;
  /**
   * The OpenTelemetry `TracerProvider` that records a SERVER span per request. Needs
   * `@opentelemetry/api` installed; without it nothing is traced.
   * @default the global provider of `@opentelemetry/api` (none registered: nothing recorded)
   */
  tracerProvider?: MockTracerProvider;
}

/** {@link MockFaultOptions} with every default applied. */
export type ResolvedFaults = Required<MockFaultOptions>;

/** The defaults of {@link MockServiceOptions}. */
export const SERVICE_DEFAULTS = Object.freeze({
  seed: 1,
  apiKeyCount: 60,
  websiteLimit: 10,
  baseUrl: 'http://localhost',
});

/** The defaults of {@link MockFaultOptions}: every fault off. */
export const FAULT_DEFAULTS: Readonly<ResolvedFaults> = Object.freeze({
  latencyMs: 0,
  rateLimitEvery: 0,
  retryAfterSeconds: 1,
  serverErrorRate: 0,
  serverErrorStatus: 503,
  dropConnectionRate: 0,
});

/** Throws `invalid_options` unless `value` is an integer within [min, max]. */
export function checkInteger(name: string, value: unknown, min: number, max: number): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    throw new MockServerError(
      'invalid_options',
      `${name} must be an integer from ${min} to ${max}; got ${describe(value)}.`,
    );
  }
  return value;
}

function checkRate(name: string, value: unknown): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || value > 1) {
    throw new MockServerError(
      'invalid_options',
      `${name} must be a number from 0 to 1; got ${describe(value)}.`,
    );
  }
  return value;
}

function describe(value: unknown): string {
  // Redacted before it is cut: a cut URL could keep its password and lose the `@` after it.
  return typeof value === 'string' ? JSON.stringify(redactUrls(value).slice(0, 40)) : String(value);
}

/** Validates fault options and fills in the defaults. */
export function resolveFaults(faults: MockFaultOptions = {}): ResolvedFaults {
  const merged = { ...FAULT_DEFAULTS, ...faults };
  return {
    latencyMs: checkInteger('faults.latencyMs', merged.latencyMs, 0, 60_000),
    rateLimitEvery: checkInteger('faults.rateLimitEvery', merged.rateLimitEvery, 0, 1_000_000),
    retryAfterSeconds: checkInteger(
      'faults.retryAfterSeconds',
      merged.retryAfterSeconds,
      0,
      86_400,
    ),
    serverErrorRate: checkRate('faults.serverErrorRate', merged.serverErrorRate),
    serverErrorStatus: checkInteger('faults.serverErrorStatus', merged.serverErrorStatus, 500, 599),
    dropConnectionRate: checkRate('faults.dropConnectionRate', merged.dropConnectionRate),
  };
}

/** {@link MockServiceOptions} with every default applied and checked. */
export interface ResolvedServiceOptions {
  seed: number;
  apiKeyCount: number;
  websiteLimit: number;
  faults: ResolvedFaults;
  baseUrl: string;
  controlToken: string | undefined;
  dangerouslyAllowLoopbackWebhooks: boolean;
  tracerProvider: MockTracerProvider | undefined;
}

/** Validates service options at construction and fills in the defaults. */
export function resolveServiceOptions(options: MockServiceOptions = {}): ResolvedServiceOptions {
  const merged = { ...SERVICE_DEFAULTS, ...options };
  return {
    seed: checkInteger('seed', merged.seed, 0, 0xffffffff),
    apiKeyCount: checkInteger('apiKeyCount', merged.apiKeyCount, 0, 100_000),
    websiteLimit: checkInteger('websiteLimit', merged.websiteLimit, 0, 100_000),
    faults: resolveFaults(options.faults),
    baseUrl: checkBaseUrl(merged.baseUrl),
    controlToken: checkControlToken(options.controlToken),
    dangerouslyAllowLoopbackWebhooks: checkBoolean(
      'dangerouslyAllowLoopbackWebhooks',
      options.dangerouslyAllowLoopbackWebhooks ?? false,
    ),
    tracerProvider: checkTracerProvider(options.tracerProvider),
  };
}

function checkTracerProvider(value: unknown): MockTracerProvider | undefined {
  if (value === undefined) return undefined;
  if (typeof (value as { getTracer?: unknown } | null)?.getTracer !== 'function') {
    throw new MockServerError(
      'invalid_options',
      'tracerProvider must be an OpenTelemetry TracerProvider (with getTracer).',
    );
  }
  return value as MockTracerProvider;
}

function checkBoolean(name: string, value: unknown): boolean {
  if (typeof value !== 'boolean')
    throw new MockServerError('invalid_options', `${name} must be true or false.`);
  return value;
}

/** Checks a control token: 16 to 200 visible ASCII characters (never echoed in the message). */
export function checkControlToken(value: unknown): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || !/^[\x21-\x7e]{16,200}$/.test(value)) {
    throw new MockServerError(
      'invalid_options',
      'controlToken must be 16 to 200 visible ASCII characters (no spaces).',
    );
  }
  return value;
}

/** Checks an http(s) origin and returns it without a trailing slash. */
export function checkBaseUrl(value: unknown): string {
  const url = typeof value === 'string' && URL.canParse(value) ? new URL(value) : undefined;
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:') || url.pathname !== '/') {
    throw new MockServerError(
      'invalid_options',
      `baseUrl must be an http(s) origin such as 'http://localhost:3000'; got ${describe(value)}.`,
    );
  }
  return url.origin;
}
