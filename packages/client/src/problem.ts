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
import { parseRetryAfter } from './retry';

/*
 * Turning responses into values or errors: problem+json bodies (RFC 9457) into API errors,
 * and 2xx bodies into schema-checked values. Any body, JSON or not, gives a useful result.
 */

/** An optional field that becomes `undefined` when it has another type, instead of failing. */
const lenient = <T extends z.ZodMiniType>(schema: T) => z.catch(z.optional(schema), undefined);

/** Fields of a problem+json body, each read on its own: one odd field does not lose the rest. */
const ProblemSchema = z.looseObject({
  type: lenient(z.string()),
  title: lenient(z.string()),
  detail: lenient(z.string()),
  code: lenient(z.string()),
  errors: lenient(z.array(z.unknown())),
});

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

/**
 * Replaces every occurrence of the token, in case a server echoes it back: as is and in
 * its JSON-escaped forms (`"` and `\` escaped, `/` also written `\/`). Internal.
 */
export function redact(text: string, token: string): string {
  if (!token) return text;
  const jsonEscaped = JSON.stringify(token).slice(1, -1);
  const forms = new Set([token, jsonEscaped, jsonEscaped.replaceAll('/', '\\/')]);
  let result = text;
  for (const form of forms) result = result.split(form).join('[redacted]');
  return result;
}

/** A copy of response headers with the token redacted from every value. Internal. */
export function redactHeaders(headers: Headers, token: string): Headers {
  const copy = new Headers();
  for (const [name, value] of headers) copy.append(name, redact(value, token));
  return copy;
}

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
  const parsed = ProblemSchema.safeParse(parseJson(rawBody));
  const problem = parsed.success ? parsed.data : {};
  // Every string below comes from the server; a `\u`-escaped echo of the token only shows
  // up after JSON parsing, so the parsed fields are redacted again.
  const clean = (text: string | undefined) =>
    text === undefined ? undefined : redact(text, token);
  const headers = redactHeaders(response.headers, token);
  const { status } = response;
  const details: CspwatchApiErrorDetails = {
    status,
    code:
      clean(problem.code) ||
      CODE_BY_STATUS[status] ||
      (status >= 500 ? 'server_error' : `http_${status}`),
    title: clean(problem.title) || clean(response.statusText) || `HTTP ${status}`,
    detail: clean(problem.detail),
    type: clean(problem.type),
    errors: fieldErrors(problem.errors).map((error) => ({
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
