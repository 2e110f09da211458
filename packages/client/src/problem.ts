import * as z from 'zod/mini';
import {
  CspwatchApiError,
  type CspwatchApiErrorDetails,
  type CspwatchApiFieldError,
  CspwatchAuthenticationError,
  CspwatchBadRequestError,
  CspwatchConflictError,
  CspwatchNotFoundError,
  CspwatchPermissionError,
  CspwatchRateLimitError,
  CspwatchResponseValidationError,
  CspwatchServerError,
} from './errors';
import { redact, redactHeaders } from './redact';
import { parseRetryAfter } from './retry';

/*
 * Turning responses into values or errors: problem+json bodies (RFC 9457) into API errors,
 * and 2xx bodies into schema-checked values. Any body, JSON or not, gives a useful result.
 */

/** A string field of a problem body, or `undefined`: one odd field does not lose the rest. */
function problemField(problem: unknown, name: string): string | undefined {
  const value =
    typeof problem === 'object' && problem !== null
      ? (problem as Record<string, unknown>)[name]
      : undefined;
  return typeof value === 'string' ? value : undefined;
}

const FieldErrorSchema = z.object({ path: z.unknown(), message: z.string() });

const CODE_BY_STATUS: Record<number, string> = {
  400: 'bad_request',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not_found',
  409: 'conflict',
  422: 'unprocessable_content',
  429: 'rate_limited',
};

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function fieldErrors(list: readonly unknown[] | undefined): CspwatchApiFieldError[] {
  const result: CspwatchApiFieldError[] = [];
  for (const item of list ?? []) {
    const parsed = FieldErrorSchema.safeParse(item);
    if (!parsed.success) continue;
    const { path, message } = parsed.data;
    result.push({ path: Array.isArray(path) ? path.join('.') : String(path ?? ''), message });
  }
  return result;
}

function errorClass(status: number): typeof CspwatchApiError {
  if (status === 400) return CspwatchBadRequestError;
  if (status === 401) return CspwatchAuthenticationError;
  if (status === 403) return CspwatchPermissionError;
  if (status === 404) return CspwatchNotFoundError;
  if (status === 409 || status === 422) return CspwatchConflictError;
  if (status === 429) return CspwatchRateLimitError;
  if (status >= 500 && status <= 599) return CspwatchServerError;
  return CspwatchApiError;
}

/** Builds the API error for a non-2xx response from its body text. Internal. */
export function toApiError(
  response: Response,
  body: string,
  now: number,
  token: string,
): CspwatchApiError {
  const rawBody = redact(body, token);
  const problem = parseJson(rawBody);
  const errorList = (problem as { errors?: unknown } | undefined)?.errors;
  // Every string below comes from the server; a `\u`-escaped echo of the token only shows
  // up after JSON parsing, so the parsed fields are redacted again.
  const clean = (name: string) => {
    const text = problemField(problem, name);
    return text === undefined ? undefined : redact(text, token);
  };
  const headers = redactHeaders(response.headers, token);
  const { status } = response;
  const details: CspwatchApiErrorDetails = {
    status,
    code:
      clean('code') ||
      CODE_BY_STATUS[status] ||
      (status >= 500 ? 'server_error' : `http_${status}`),
    title: clean('title') || redact(response.statusText, token) || `HTTP ${status}`,
    detail: clean('detail'),
    type: clean('type'),
    errors: fieldErrors(Array.isArray(errorList) ? errorList : undefined).map((error) => ({
      path: redact(error.path, token),
      message: redact(error.message, token),
    })),
    requestId: headers.get('x-request-id') ?? undefined,
    headers,
    rawBody,
    retryAfterMs: parseRetryAfter(headers.get('retry-after'), now),
  };
  const ErrorClass = errorClass(status);
  return new ErrorClass(details);
}

function describeIssues(issues: readonly z.core.$ZodIssue[]): string {
  const shown = issues.slice(0, 3).map((issue) => {
    const path = issue.path.length > 0 ? issue.path.join('.') : '(root)';
    const expected = 'expected' in issue ? ` (expected ${String(issue.expected)})` : '';
    return `${path}: ${issue.code}${expected}`;
  });
  const more = issues.length > 3 ? `; and ${issues.length - 3} more` : '';
  return shown.join('; ') + more;
}

/** Parses a 2xx body with `schema`, or throws {@link CspwatchResponseValidationError}. Internal. */
export function parseSuccessBody<T extends z.ZodMiniType>(
  response: Response,
  rawBody: string,
  schema: T,
  token: string,
): z.output<T> {
  const requestId = redactHeaders(response.headers, token).get('x-request-id') ?? undefined;
  const json = parseJson(rawBody);
  const base = { status: response.status, requestId, rawBody: redact(rawBody, token) };
  if (json === undefined) {
    throw new CspwatchResponseValidationError(`The ${response.status} response body is not JSON`, {
      ...base,
      issues: [],
    });
  }
  const result = schema.safeParse(json);
  if (!result.success) {
    throw new CspwatchResponseValidationError(
      `The ${response.status} response does not match the documented shape: ${describeIssues(result.error.issues)}`,
      { ...base, issues: result.error.issues },
    );
  }
  return result.data;
}
