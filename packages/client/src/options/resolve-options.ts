import {
  checkFunction,
  checkInteger,
  checkRequired,
  type Issue,
  isOptionsObject,
  issue,
} from '@cspwatch/internal';
import { CspwatchInputError } from '../errors/input-error';
import {
  type CspwatchClientOptions,
  type CspwatchRequestOptions,
  DEFAULT_CLIENT_OPTIONS,
  type ResolvedOptions,
} from './client-options';
import { debugLogger } from './debug-log';

/*
 * The rules of the client options and of the per-call options, checked when the client is
 * created (and when a call is made, for the call's own): every problem is collected, so one
 * error names every field to fix.
 */

/** The longest delay a timer accepts. */
const MAX_TIMER_MS = 2_147_483_647;

function environment(name: string): string | undefined {
  const env = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process
    ?.env;
  return env?.[name] || undefined;
}

const isLoopback = (hostname: string) =>
  hostname === 'localhost' ||
  hostname.endsWith('.localhost') ||
  hostname === '[::1]' ||
  /^127(?:\.\d{1,3}){3}$/.test(hostname);

function checkBaseUrl(issues: Issue[], raw: unknown, allowHttp: boolean): URL | undefined {
  const what = 'pass `baseUrl` or set the CSPWATCH_BASE_URL environment variable';
  if (!checkRequired(issues, 'baseUrl', raw, what)) return undefined;
  const url = typeof raw === 'string' && URL.canParse(raw) ? new URL(raw) : undefined;
  if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:')) {
    issues.push(issue('baseUrl', 'invalid', 'must be an absolute http(s) URL'));
    return undefined;
  }
  if (url.search || url.hash || url.username || url.password) {
    issues.push(issue('baseUrl', 'invalid', 'must not contain a query, fragment or credentials'));
  }
  if (url.protocol === 'http:' && !isLoopback(url.hostname) && !allowHttp) {
    const message = `plain http: sends the token unencrypted to ${url.host}: use https: (or dangerouslyAllowInsecureHttp: true)`;
    issues.push(issue('baseUrl', 'invalid', message));
  }
  if (/\/v1\/*$/.test(url.pathname)) {
    // Built from the origin and path: a query or credentials, refused above, are not repeated.
    const suggested = url.origin + url.pathname.replace(/\/v1\/*$/, '');
    const message = `must not end with /v1, which the client adds (use ${suggested})`;
    issues.push(issue('baseUrl', 'invalid', message));
  }
  return url;
}

function checkToken(issues: Issue[], token: unknown) {
  if (typeof token === 'function') return;
  if (typeof token !== 'string' || token.trim() === '') {
    const code = typeof token === 'string' ? 'invalid' : 'wrong_type';
    issues.push(issue('token', code, 'must be a non-empty string or a function returning one'));
  } else if (!isValidTokenValue(token)) {
    issues.push(issue('token', 'invalid', 'contains whitespace or control characters'));
  }
}

/** A token must be printable ASCII without spaces, so it fits in one header. Internal. */
export function isValidTokenValue(token: string): boolean {
  return /^[\x21-\x7e]+$/.test(token);
}

function checkHeaders(issues: Issue[], headers: unknown) {
  if (!isOptionsObject(headers)) {
    const message = 'must be an object of header names to strings';
    issues.push(issue('headers', 'not_an_object', message));
    return;
  }
  for (const [name, value] of Object.entries(headers)) {
    const path = `headers.${name}`;
    if (name.toLowerCase() === 'authorization') {
      issues.push(issue(path, 'invalid', 'is set by the client: use `token`'));
    } else if (!/^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/.test(name) || typeof value !== 'string') {
      issues.push(issue(path, 'invalid', 'must be a valid header name with a string value'));
    } else if (/[\r\n\0]/.test(value)) {
      issues.push(issue(path, 'invalid', 'must not contain line breaks'));
    }
  }
}

const checkDuration = (issues: Issue[], path: string, value: unknown, min: number) =>
  checkInteger(issues, path, value, { min, max: MAX_TIMER_MS, unit: 'ms' });

/**
 * Checks the per-call options (`timeout`, `maxRetries`, `headers`; the signal is checked by
 * the caller), recording issues under the same names as the client options. Internal.
 */
export function checkRequestOptions(issues: Issue[], given: CspwatchRequestOptions) {
  checkDuration(issues, 'timeout', given.timeout, 1);
  checkInteger(issues, 'maxRetries', given.maxRetries, { min: 0, max: 10 });
  if (given.headers !== undefined) checkHeaders(issues, given.headers);
}

/** Validates the options and applies defaults; throws {@link CspwatchInputError}. Internal. */
export function resolveOptions(options: CspwatchClientOptions): ResolvedOptions {
  const issues: Issue[] = [];
  const given = options ?? ({} as CspwatchClientOptions);
  const url = checkBaseUrl(
    issues,
    given.baseUrl ?? environment('CSPWATCH_BASE_URL'),
    given.dangerouslyAllowInsecureHttp === true,
  );
  checkToken(issues, given.token);
  const merged = { ...DEFAULT_CLIENT_OPTIONS, ...withoutUndefined(given) };
  checkDuration(issues, 'timeout', merged.timeout, 1);
  checkDuration(issues, 'totalTimeout', merged.totalTimeout, 1);
  checkDuration(issues, 'retryAfterCap', merged.retryAfterCap, 0);
  checkInteger(issues, 'maxRetries', merged.maxRetries, { min: 0, max: 10 });
  const hooks = given.hooks ?? {};
  for (const name of ['fetch', 'logger', 'random'] as const)
    checkFunction(issues, name, given[name]);
  for (const [name, value] of Object.entries(hooks)) checkFunction(issues, `hooks.${name}`, value);
  const headers = given.headers ?? {};
  checkHeaders(issues, headers);
  const { tracerProvider } = given;
  if (
    tracerProvider !== undefined &&
    typeof (tracerProvider as { getTracer?: unknown } | null)?.getTracer !== 'function'
  ) {
    issues.push(issue('tracerProvider', 'wrong_type', 'must be an OpenTelemetry TracerProvider'));
  }
  if (issues.length > 0 || !url) throw new CspwatchInputError(issues, 'invalid_options');
  const customFetch = given.fetch;
  return {
    ...merged,
    baseUrl: url.href.replace(/\/+$/, ''),
    host: url.host,
    token: given.token,
    // Looked up per request so msw and test doubles installed later still intercept.
    fetch: (input, init) => (customFetch ?? globalThis.fetch)(input, init),
    headers: { ...headers },
    hooks: { ...hooks },
    logger: given.logger ?? (environment('CSPWATCH_LOG') === 'debug' ? debugLogger : undefined),
    random: given.random ?? Math.random,
    tracerProvider,
  };
}

function withoutUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
