import type * as z from 'zod/mini';
import {
  apiErrorClass,
  type CspwatchApiError,
  type CspwatchApiFieldError,
} from '../errors/api-error';
import { CspwatchConnectionError } from '../errors/connection-error';
import type { CspwatchErrorOptions } from '../errors/cspwatch-error';
import { CspwatchResponseValidationError } from '../errors/response-validation-error';
import { fastCheck } from '../validation/fast-check';
import { redactHeaders, redactText } from './redact';
import { parseRetryAfter } from './retry';

/*
 * What an answer means: a value checked against its schema, or an error built from the
 * response (problem+json, RFC 9457, or any other body) or from a failed connection. The
 * token is redacted here, once per response: headers always, the body only for an error;
 * the texts an error message is made of also lose the userinfo and query values of URLs.
 */

/** A response as the rest of the client may see it: the token redacted from its headers. */
export interface SeenResponse {
  status: number;
  headers: Headers;
  requestId: string | undefined;
  statusText: string;
}

/** Reads what may be shown of a response, the token redacted. Internal. */
export function seeResponse(response: Response, token: string): SeenResponse {
  const headers = redactHeaders(response.headers, token);
  return {
    status: response.status,
    headers,
    requestId: headers.get('x-request-id') ?? undefined,
    statusText: redactText(response.statusText, token),
  };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** A value of a problem body as text: a string as is, else its JSON text (`''` when absent). */
const asText = (value: unknown): string =>
  typeof value === 'string' ? value : (JSON.stringify(value) ?? '');

/**
 * The `errors` of a problem, whatever their shape: an entry that is not an object, or has
 * neither a path nor a message, is skipped.
 */
function fieldErrors(list: unknown, clean: (text: string) => string): CspwatchApiFieldError[] {
  const result: CspwatchApiFieldError[] = [];
  for (const item of Array.isArray(list) ? list : []) {
    if (typeof item !== 'object' || item === null || Array.isArray(item)) continue;
    const path = asText(item.path);
    const message = asText(item.message);
    if (path || message) result.push({ path: clean(path), message: clean(message) });
  }
  return result;
}

/**
 * Builds the API error of a non-2xx answer. A 3xx (status 0 for a browser's opaque
 * redirect) is `redirect_not_followed`. Internal.
 */
export function toApiError(
  seen: SeenResponse,
  body: string,
  token: string,
  options: CspwatchErrorOptions,
): CspwatchApiError {
  const clean = (text: string) => redactText(text, token);
  // The body, like the message, may be printed whole (`console.error(error)`): its URLs too.
  const rawBody = clean(body);
  // Fields are read from the body as sent and redacted once each: a `\u`-escaped echo of the
  // token shows up only after parsing, and redacting the redacted body again would mangle it.
  const parsed = parseJson(body);
  const problem =
    typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, unknown>) : {};
  const field = (name: string) => {
    const value = problem[name];
    return typeof value === 'string' ? clean(value) : undefined;
  };
  const { status, headers } = seen;
  const redirect = status === 0 || (status >= 300 && status <= 399);
  const location = headers.get('location');
  const [ErrorClass, statusCode] = apiErrorClass(status);
  return new ErrorClass(
    {
      status,
      code: redirect ? 'redirect_not_followed' : field('code') || statusCode,
      title: (!redirect && field('title')) || seen.statusText || `HTTP ${status}`,
      detail: redirect
        ? `Not following the redirect${location ? ` to ${location}` : ''}: check baseUrl`
        : field('detail'),
      type: field('type'),
      errors: fieldErrors(problem.errors, clean),
      requestId: seen.requestId,
      headers,
      rawBody,
      retryAfterMs: parseRetryAfter(headers.get('retry-after'), Date.now()),
    },
    options,
  );
}

function describeIssues(issues: readonly z.core.$ZodIssue[]): string {
  return issues
    .slice(0, 3)
    .map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`)
    .join('; ');
}

/** Parses a 2xx body with `schema`, or throws {@link CspwatchResponseValidationError}. Internal. */
export function parseSuccessBody<T extends z.ZodMiniType>(
  seen: SeenResponse,
  body: string,
  schema: T,
  token: string,
  options: CspwatchErrorOptions,
): z.output<T> {
  const json = parseJson(body);
  if (json !== undefined && fastCheck(schema)(json)) return json as z.output<T>;
  const result = json === undefined ? undefined : schema.safeParse(json);
  if (result?.success) return result.data;
  const details = {
    status: seen.status,
    requestId: seen.requestId,
    rawBody: redactText(body, token),
    issues: result?.error.issues ?? [],
  };
  const message = result
    ? `The ${seen.status} response does not match the documented shape: ${describeIssues(details.issues)}`
    : `The ${seen.status} response body is not JSON`;
  throw new CspwatchResponseValidationError(message, details, options);
}

/** System error codes of failures before a connection exists: nothing was sent. */
const NOT_SENT_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EAI_NONAME',
  'EAI_FAIL',
  'ENETUNREACH',
  'EHOSTUNREACH',
  'EADDRNOTAVAIL',
  'UND_ERR_CONNECT_TIMEOUT',
]);

const codeOf = (error: unknown) => {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
};

/** The system error codes under a fetch `TypeError` (undici puts them in `cause`). */
function networkCodes(error: unknown): string[] {
  const cause = (error as { cause?: unknown } | null)?.cause;
  const inner = cause instanceof AggregateError ? cause.errors : [cause];
  return [codeOf(cause), ...inner.map(codeOf)].filter((c): c is string => c !== undefined);
}

/**
 * Maps a failed `fetch` to a {@link CspwatchConnectionError} naming the host. The request
 * "may have been sent" unless the failure is known to precede the connection. Internal.
 */
export function toConnectionError(
  error: unknown,
  method: string,
  host: string,
  options: CspwatchErrorOptions,
): CspwatchConnectionError {
  const codes = networkCodes(error);
  const reason = codes[0] ?? (error instanceof Error ? error.message : 'unknown error');
  const notSent = codes.length > 0 && codes.every((code) => NOT_SENT_CODES.has(code));
  return new CspwatchConnectionError(
    `${method} to ${host} failed before a response arrived (${reason})`,
    { requestMayHaveBeenSent: !notSent, host },
    { ...options, cause: error },
  );
}
