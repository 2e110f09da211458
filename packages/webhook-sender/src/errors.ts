/**
 * Errors thrown by `@cspwatch/webhook-sender`. Delivery failures are not thrown: they come
 * back as a {@link DeliveryResult}. What is thrown is bad input: options, channels, alerts.
 */
import { redactUrls } from '@cspwatch/contract';
import { CspwatchIssuesError, formatIssues, hasErrorKind, type Issue } from '@cspwatch/internal';

/**
 * What went wrong, as a stable snake_case identifier you can `switch` on.
 *
 * - `invalid_options`: an options object given to a factory is wrong.
 * - `invalid_channel`: a webhook channel (create or edit) does not validate.
 * - `invalid_alert`: the input of `buildAlert` is missing fields or inconsistent.
 */
export type WebhookSenderErrorCode = 'invalid_options' | 'invalid_channel' | 'invalid_alert';

/**
 * One problem found while validating input: the issue type every cspwatch package uses
 * (`path`, `code`, `message`), under this package's name.
 *
 * @example
 * ```ts
 * { path: 'secret', code: 'secret_too_short', message: 'secret must be at least 8 characters' }
 * ```
 */
export type ValidationIssue = Issue;

/**
 * The one error class of this package: a literal `name`, a `code` and `issues`, the frozen list
 * of every problem found, in field order (at least one).
 * `instanceof` and {@link isWebhookSenderError} also recognise an error of another installed
 * copy of this package.
 *
 * @example
 * ```ts
 * try {
 *   createWebhookChannel({ name: 'Ops', url: 'http://10.0.0.1/', secret: 'short' });
 * } catch (error) {
 *   if (isWebhookSenderError(error) && error.code === 'invalid_channel') {
 *     for (const issue of error.issues) console.log(issue.path, issue.message);
 *   }
 * }
 * ```
 */
export class WebhookSenderError extends CspwatchIssuesError<WebhookSenderErrorCode> {
  /** The marker every copy of this package sets on its errors. */
  static readonly kind: string = '@cspwatch/webhook-sender.WebhookSenderError';
  /** Always `'WebhookSenderError'`. */
  override readonly name = 'WebhookSenderError' as const;

  /**
   * @param code - the error code
   * @param issues - the problems found (the message lists them)
   * @param options - `cause`, passed through to `Error`
   */
  constructor(
    code: WebhookSenderErrorCode,
    issues: readonly ValidationIssue[],
    options?: { cause?: unknown },
  ) {
    // A path may be a key the caller gave (an unknown option): no URL secret in what is shown.
    const shown = issues.map((issue) => ({
      ...issue,
      path: redactUrls(issue.path),
      message: redactUrls(issue.message),
    }));
    super(code, `${code.replace(/_/g, ' ')}: ${formatIssues(shown)}`, {
      ...options,
      issues: shown,
    });
  }
}

/**
 * Tells whether a value is a {@link WebhookSenderError}, even one thrown by another installed
 * copy of this package.
 *
 * @example
 * ```ts
 * if (isWebhookSenderError(error)) console.error(error.code, error.issues);
 * ```
 */
export function isWebhookSenderError(value: unknown): value is WebhookSenderError {
  return hasErrorKind(value, WebhookSenderError.kind);
}

/** Throws a {@link WebhookSenderError} when `issues` is not empty. Internal helper. */
export function throwIfIssues(code: WebhookSenderErrorCode, issues: ValidationIssue[]): void {
  if (issues.length > 0) throw new WebhookSenderError(code, issues);
}
