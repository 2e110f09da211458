import {
  checkBoolean,
  checkObject,
  checkUnknownKeys,
  formatIssues,
  type Issue,
  issue,
  issuesFromZod,
} from '@cspwatch/internal';
import type { z } from 'zod';
import { MockServerError } from './errors';
import { FaultsSchema, type MockFaultOptions, type ResolvedFaults } from './rules/faults';
import { integer, websiteLimit } from './rules/fields';
import type { MockTracerProvider } from './telemetry/tracing';

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

/** The defaults of {@link MockServiceOptions}. */
export const SERVICE_DEFAULTS = Object.freeze({
  seed: 1,
  apiKeyCount: 60,
  websiteLimit: 10,
  baseUrl: 'http://localhost',
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

/**
 * Checks the option at `path` with its zod rule, pushing its problems into `issues` (one per
 * field: zod can refuse a value twice, a huge integer being unsafe and too big); returns what
 * the rule gives. `undefined` passes: an absent option takes its default.
 */
export function checkWith<Rule extends z.ZodType>(
  issues: Issue[],
  path: string,
  rule: Rule,
  value: unknown,
): z.output<Rule> {
  if (value === undefined) return undefined as z.output<Rule>;
  const parsed = rule.safeParse(value);
  for (const found of issuesFromZod(
    parsed.error?.issues.map((one) => ({ ...one, path: [path, ...one.path] })) ?? [],
  ))
    if (!issues.some((known) => known.path === found.path)) issues.push(found);
  return parsed.data as z.output<Rule>;
}

/** Throws `invalid_options` unless `value` passes the zod `rule`; returns what the rule gives. */
export function requireValid<Rule extends z.ZodType>(
  path: string,
  rule: Rule,
  value: unknown,
): z.output<Rule> {
  const issues: Issue[] = [];
  const valid = checkWith(issues, path, rule, value);
  throwIfIssues(issues);
  return valid;
}

const FAULT_SHAPE = '{ latencyMs, rateLimitEvery, … }';

/**
 * Checks fault options with the one fault schema and returns them with their defaults. An
 * unknown key is named first, with the key it most likely means, so zod's plainer word for the
 * same key is not repeated.
 */
function checkFaults(issues: Issue[], value: unknown): ResolvedFaults {
  if (checkObject(issues, 'faults', value, FAULT_SHAPE))
    checkUnknownKeys(issues, value as object, Object.keys(FaultsSchema.shape), 'faults.');
  return checkWith(issues, 'faults', FaultsSchema, value);
}

/** Validates fault options and fills in the defaults. */
export function resolveFaults(faults: MockFaultOptions = {}): ResolvedFaults {
  const issues: Issue[] = [];
  const resolved = checkFaults(issues, faults);
  throwIfIssues(issues);
  return resolved;
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
  const { seed, apiKeyCount, faults, baseUrl, controlToken } = options;
  checkUnknownKeys(issues, options, [...SERVICE_OPTIONS, ...extra]);
  checkWith(issues, 'seed', integer({ min: 0, max: 0xffffffff }), seed);
  checkWith(issues, 'apiKeyCount', integer({ min: 0, max: 100_000 }), apiKeyCount);
  checkWith(issues, 'websiteLimit', websiteLimit, options.websiteLimit);
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
  return {
    seed: options.seed ?? SERVICE_DEFAULTS.seed,
    apiKeyCount: options.apiKeyCount ?? SERVICE_DEFAULTS.apiKeyCount,
    websiteLimit: options.websiteLimit ?? SERVICE_DEFAULTS.websiteLimit,
    faults: FaultsSchema.parse(options.faults ?? {}),
    baseUrl: originOf(options.baseUrl ?? SERVICE_DEFAULTS.baseUrl) as string,
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
