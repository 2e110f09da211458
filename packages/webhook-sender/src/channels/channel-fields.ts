/**
 * Field checks of webhook channels, shared by create and edit. Each check records issues and
 * returns the normalised value; messages never contain the secret.
 */
import { issue } from '@cspwatch/internal';
import { MIN_SECRET_LENGTH, secretProblem } from '@cspwatch/webhooks';
import { type ValidationIssue, WebhookSenderError } from '../errors';
import { checkWebhookTargetStatic } from '../target/target-policy';

/** Options of channel validation. */
export interface ChannelValidationOptions {
  /** Identifier of a new channel. @default `wh_` + a random UUID */
  readonly id?: string;
  /** Accept loopback URLs (local testing only), as in the target policy. @default false */
  readonly dangerouslyAllowLoopback?: boolean;
}

const MAX_SECRET_CODE_POINTS = 4096;
const MAX_NAME_CODE_POINTS = 255;
const MAX_URL_LENGTH = 2048;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
// biome-ignore lint/suspicious/noControlCharactersInRegex: rejecting control characters is the point
const CONTROL = /[\u0000-\u001f\u007f]/;

const FIELDS = new Set(['name', 'url', 'secret', 'type']);

/** Internal field check. */
export function checkName(value: unknown, issues: ValidationIssue[]): string {
  if (typeof value !== 'string') {
    issues.push(issue('name', 'name_required', 'must be a string'));
    return '';
  }
  const name = value.trim();
  const length = [...name].length;
  if (length === 0) issues.push(issue('name', 'name_required', 'must not be empty'));
  if (length > MAX_NAME_CODE_POINTS)
    issues.push(issue('name', 'name_too_long', 'at most 255 characters'));
  if (CONTROL.test(name)) issues.push(issue('name', 'name_invalid', 'no control characters'));
  return name;
}

/** Internal field check. */
export function checkUrl(
  value: unknown,
  issues: ValidationIssue[],
  options: ChannelValidationOptions,
): string {
  if (typeof value !== 'string') {
    issues.push(issue('url', 'url_required', 'must be a string'));
    return '';
  }
  if (value.length > MAX_URL_LENGTH)
    issues.push(issue('url', 'url_too_long', 'at most 2048 characters'));
  const verdict = checkWebhookTargetStatic(value, options);
  if (!verdict.allowed) {
    issues.push(issue('url', `url_${verdict.reason}`, verdict.message));
    return '';
  }
  return verdict.url.href;
}

/** Internal field check. */
export function checkSecret(value: unknown, issues: ValidationIssue[]): string {
  if (typeof value !== 'string') {
    issues.push(issue('secret', 'secret_required', 'must be a string'));
    return '';
  }
  if (secretProblem(value) !== undefined) {
    issues.push(
      issue('secret', 'secret_too_short', `must be at least ${MIN_SECRET_LENGTH} characters`),
    );
  }
  if ([...value].length > MAX_SECRET_CODE_POINTS)
    issues.push(issue('secret', 'secret_too_long', 'at most 4096 characters'));
  if (LONE_SURROGATE.test(value))
    issues.push(
      issue('secret', 'secret_not_well_formed', 'must be well-formed Unicode (no lone surrogates)'),
    );
  return value;
}

/** Internal field check. */
export function checkShape(input: unknown, issues: ValidationIssue[]): Record<string, unknown> {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    throw new WebhookSenderError('invalid_channel', [
      issue('(body)', 'not_an_object', 'must be an object'),
    ]);
  }
  const record = input as Record<string, unknown>;
  for (const key of Object.keys(record)) {
    if (!FIELDS.has(key))
      issues.push(issue(key, 'unknown_field', 'unknown field; expected name, url, secret'));
  }
  if (record.type !== undefined && record.type !== 'Webhook') {
    issues.push(issue('type', 'type_invalid', 'must be "Webhook"'));
  }
  return record;
}
