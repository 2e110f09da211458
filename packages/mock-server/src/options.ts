import {
  checkBoolean,
  checkInteger,
  checkObject,
  checkRequired,
  checkUnknownKeys,
  describeValue,
  formatIssues,
  type IntegerBounds,
  type Issue,
  issue,
} from '@cspwatch/internal';
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

/** The `invalid_options` error listing `issues`: the one way the mock words option problems. */
export function invalidOptions(issues: readonly Issue[], what = 'options'): MockServerError {
  return new MockServerError('invalid_options', `Invalid ${what}: ${formatIssues(issues)}.`, {
    issues,
  });
}

/** Throws {@link invalidOptions} when there is any issue. */
export function throwIfIssues(issues: readonly Issue[], what = 'options'): void {
  if (issues.length > 0) throw invalidOptions(issues, what);
}

/** Throws `invalid_options` unless `value` is an integer within `bounds`; returns it. */
export function requireInteger(path: string, value: unknown, bounds: IntegerBounds): number {
  const issues: Issue[] = [];
  if (checkRequired(issues, path, value, `an integer from ${bounds.min} to ${bounds.max}`))
    checkInteger(issues, path, value, bounds);
  throwIfIssues(issues);
  return value as number;
}

/** An optional share from 0 to 1 (a fault rate). */
function checkRate(issues: Issue[], path: string, value: unknown): void {
  if (value === undefined) return;
  if (typeof value === 'number' && value >= 0 && value <= 1) return;
  const code = typeof value === 'number' ? 'out_of_range' : 'wrong_type';
  issues.push(issue(path, code, `must be a number from 0 to 1, got ${describeValue(value)}`));
}

/** The given fields, without those set to `undefined` (which take their default). */
const given = <T extends object>(options: T): Partial<T> =>
  Object.fromEntries(
    Object.entries(options).filter(([, value]) => value !== undefined),
  ) as Partial<T>;

function checkFaults(issues: Issue[], value: unknown): void {
  if (!checkObject(issues, 'faults', value, '{ latencyMs, rateLimitEvery, … }')) return;
  const faults = value as Record<string, unknown>;
  checkUnknownKeys(issues, faults, Object.keys(FAULT_DEFAULTS), 'faults.');
  checkInteger(issues, 'faults.latencyMs', faults.latencyMs, { min: 0, max: 60_000, unit: 'ms' });
  checkInteger(issues, 'faults.rateLimitEvery', faults.rateLimitEvery, { min: 0, max: 1_000_000 });
  checkInteger(issues, 'faults.retryAfterSeconds', faults.retryAfterSeconds, {
    min: 0,
    max: 86_400,
    unit: 's',
  });
  checkRate(issues, 'faults.serverErrorRate', faults.serverErrorRate);
  checkInteger(issues, 'faults.serverErrorStatus', faults.serverErrorStatus, {
    min: 500,
    max: 599,
  });
  checkRate(issues, 'faults.dropConnectionRate', faults.dropConnectionRate);
}

/** Validates fault options and fills in the defaults. */
export function resolveFaults(faults: MockFaultOptions = {}): ResolvedFaults {
  const issues: Issue[] = [];
  checkFaults(issues, faults);
  throwIfIssues(issues);
  return { ...FAULT_DEFAULTS, ...given(faults) };
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

/** The names {@link MockServiceOptions} knows. */
const SERVICE_OPTIONS = [
  'seed',
  'apiKeyCount',
  'websiteLimit',
  'faults',
  'baseUrl',
  'controlToken',
  'dangerouslyAllowLoopbackWebhooks',
  'tracerProvider',
] as const satisfies readonly (keyof MockServiceOptions)[];

/**
 * Checks service options into `issues` (every problem, not only the first); `extra` names the
 * options a wrapper (`startMockServer`) adds and checks itself.
 */
export function checkServiceOptions(
  issues: Issue[],
  value: unknown,
  extra: readonly string[] = [],
): void {
  if (!checkObject(issues, '(options)', value, '{ seed, apiKeyCount, faults, … }')) return;
  const options = value as Record<string, unknown>;
  const { seed, apiKeyCount, websiteLimit, faults, baseUrl, controlToken } = options;
  checkUnknownKeys(issues, options, [...SERVICE_OPTIONS, ...extra]);
  checkInteger(issues, 'seed', seed, { min: 0, max: 0xffffffff });
  checkInteger(issues, 'apiKeyCount', apiKeyCount, { min: 0, max: 100_000 });
  checkInteger(issues, 'websiteLimit', websiteLimit, { min: 0, max: 100_000 });
  if (faults !== undefined) checkFaults(issues, faults);
  if (baseUrl !== undefined && originOf(baseUrl) === undefined)
    issues.push(issue('baseUrl', 'invalid', BASE_URL_RULE));
  if (controlToken !== undefined && !isControlToken(controlToken))
    issues.push(issue('controlToken', 'invalid', CONTROL_TOKEN_RULE));
  checkBoolean(
    issues,
    'dangerouslyAllowLoopbackWebhooks',
    options.dangerouslyAllowLoopbackWebhooks,
  );
  const { tracerProvider } = options;
  if (
    tracerProvider !== undefined &&
    typeof (tracerProvider as { getTracer?: unknown } | null)?.getTracer !== 'function'
  )
    issues.push(issue('tracerProvider', 'wrong_type', 'must be an OpenTelemetry TracerProvider'));
}

/** Validates service options at construction and fills in the defaults. */
export function resolveServiceOptions(options: MockServiceOptions = {}): ResolvedServiceOptions {
  const issues: Issue[] = [];
  checkServiceOptions(issues, options);
  throwIfIssues(issues);
  const merged = { ...SERVICE_DEFAULTS, ...given(options) };
  return {
    seed: merged.seed,
    apiKeyCount: merged.apiKeyCount,
    websiteLimit: merged.websiteLimit,
    faults: { ...FAULT_DEFAULTS, ...given(options.faults ?? {}) },
    baseUrl: originOf(merged.baseUrl) as string,
    controlToken: options.controlToken,
    dangerouslyAllowLoopbackWebhooks: options.dangerouslyAllowLoopbackWebhooks ?? false,
    tracerProvider: options.tracerProvider,
  };
}

const CONTROL_TOKEN_RULE = 'must be 16 to 200 visible ASCII characters (no spaces)';
const BASE_URL_RULE = "must be an http(s) origin such as 'http://localhost:3000'";

/** A control token: 16 to 200 visible ASCII characters (never echoed in a message). */
const isControlToken = (value: unknown): value is string =>
  typeof value === 'string' && /^[\x21-\x7e]{16,200}$/.test(value);

/** The origin of an http(s) URL without a path, or `undefined` for anything else. */
function originOf(value: unknown): string | undefined {
  const url = typeof value === 'string' && URL.canParse(value) ? new URL(value) : undefined;
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:') || url.pathname !== '/')
    return undefined;
  return url.origin;
}

/** Checks an http(s) origin and returns it without a trailing slash. */
export function checkBaseUrl(value: unknown): string {
  const origin = originOf(value);
  if (origin === undefined) throwIfIssues([issue('baseUrl', 'invalid', BASE_URL_RULE)]);
  return origin as string;
}
