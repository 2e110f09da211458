/**
 * Checks of what `enqueue` and the admin calls take, before anything is sent to Redis: an
 * alert enters durable storage only if the contract's schema accepts it and it fits the cap.
 */
import { AlertSchema, toFieldErrors } from '@cspwatch/contract';
import { type Issue, issue } from '@cspwatch/internal';
import type { CspwatchEvent } from '@cspwatch/webhooks';
import { en } from 'zod/locales';
import type * as z from 'zod/mini';
import { CspwatchRedisError, throwIfIssues } from '../errors';

/** Throws `invalid_input` unless `channelId` is a usable channel id. */
export function checkChannelId(channelId: unknown): asserts channelId is string {
  if (typeof channelId !== 'string' || channelId === '' || channelId.length > 256) {
    throw new CspwatchRedisError(
      'invalid_input',
      'channelId must be a non-empty string (at most 256 characters)',
    );
  }
}

/** Throws `invalid_input` unless `alertId` is a usable alert id (an alert's payload `id`). */
export function checkAlertId(alertId: unknown): asserts alertId is string {
  if (typeof alertId !== 'string' || alertId === '' || alertId.length > 256) {
    throw new CspwatchRedisError(
      'invalid_input',
      "alertId must be an alert's payload id: a non-empty string (at most 256 characters)",
    );
  }
}

// zod/mini has no messages of its own ("Invalid input"): the English ones say what a field expects.
const parseOptions = { error: en().localeError };

/** Problems reported per refusal: enough to say what to fix, and bounded for any input. */
const MAX_REPORTED = 20;

/** The first problems only: an object with 100 000 unknown keys must not make a 7 MB message. */
function firstIssues(issues: readonly z.core.$ZodIssue[]): z.core.$ZodIssue[] {
  return issues
    .slice(0, MAX_REPORTED)
    .map((issue) =>
      issue.code === 'unrecognized_keys'
        ? { ...issue, keys: issue.keys.slice(0, MAX_REPORTED) }
        : issue,
    );
}

function refuse(issues: readonly Issue[]): never {
  throwIfIssues('enqueue', issues, 'invalid_input');
  // Only for the type checker: a refusal always has at least one issue.
  throw new CspwatchRedisError('invalid_input', 'enqueue: the alert was refused');
}

/**
 * Throws `invalid_input` (naming the first 20 problems by dotted path, e.g.
 * `alert.findings.0.count`) unless `alert` is an alert the contract's schema accepts and its
 * JSON is at most `maxAlertBytes` bytes (UTF-8); returns the parsed copy the job stores.
 */
export function toJobAlert(alert: unknown, maxAlertBytes: number): CspwatchEvent {
  const parsed = AlertSchema.safeParse(alert, parseOptions);
  if (!parsed.success) {
    const fields = toFieldErrors(firstIssues(parsed.error.issues), 'alert');
    refuse(
      fields.slice(0, MAX_REPORTED).map(({ path, message }) => issue(path, 'invalid', message)),
    );
  }
  // zod's copy is plain data (strings, safe integers, objects, arrays): this cannot throw.
  const bytes = Buffer.byteLength(JSON.stringify(parsed.data), 'utf8');
  if (bytes > maxAlertBytes) {
    refuse([
      issue(
        'alert',
        'out_of_range',
        `is ${bytes} bytes as JSON, over the cap of ${maxAlertBytes} bytes: send fewer or shorter findings, or raise the maxAlertBytes option of createDeliveryQueue`,
      ),
    ]);
  }
  return parsed.data;
}
