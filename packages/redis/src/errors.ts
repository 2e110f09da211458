/**
 * Errors thrown by `@cspwatch/redis`. Delivery failures are not thrown (they are recorded in the
 * history); what is thrown is bad input and a Redis that cannot answer.
 */

import {
  CspwatchIssuesError,
  formatIssues,
  hasErrorKind,
  type Issue,
  type IssuesErrorOptions,
} from '@cspwatch/internal';

/**
 * What went wrong, as a stable snake_case identifier you can `switch` on.
 *
 * - `invalid_options`: an options object given to a factory is wrong (see `issues`).
 * - `invalid_input`: an argument of a method is wrong (a missing channel id, an alert without `id`).
 * - `redis_unavailable`: Redis did not answer in time (down, restarting, unreachable).
 *   Nothing was recorded; retry later.
 * - `redis_command_failed`: Redis answered with an error (for example `OOM` when it is full).
 * - `not_replicated`: `enqueue` with `durability: 'replicated'`: the primary stored the alert,
 *   but no replica confirmed it in time. Enqueue it again (the same alert is the same job).
 * - `channel_unusable`: (given to a worker's `onError`, never thrown) a channel cannot be
 *   delivered to as configured: its `channels` lookup threw, or its URL or secret is unusable.
 *   The message says what to fix; its alerts are parked once their attempts run out.
 */
export type CspwatchRedisErrorCode =
  | 'invalid_options'
  | 'invalid_input'
  | 'redis_unavailable'
  | 'redis_command_failed'
  | 'not_replicated'
  | 'channel_unusable';

/**
 * One problem found while validating options or input: the issue type every cspwatch package
 * uses (`path`, `code`, `message`), under this package's name.
 */
export type RedisOptionIssue = Issue;

/**
 * Options of {@link CspwatchRedisError}'s constructor: `cause`, and the `issues` of
 * `invalid_options` and `invalid_input`.
 */
export type CspwatchRedisErrorOptions = IssuesErrorOptions;

/**
 * The one error class of this package: a literal `name`, a `code` and `issues`, the frozen list
 * of problems of `invalid_options` and `invalid_input` (empty for the other codes). It is built
 * as `new CspwatchRedisError(code, message, { issues, cause })`; `cause` holds the Redis
 * client's own error. `instanceof` and {@link isCspwatchRedisError} also recognise an error of
 * another installed copy.
 *
 * @example
 * ```ts
 * try {
 *   await queue.enqueue(channel.id, alert);
 * } catch (error) {
 *   if (isCspwatchRedisError(error) && error.code === 'redis_unavailable') retryLater(alert);
 *   else throw error;
 * }
 * ```
 */
export class CspwatchRedisError extends CspwatchIssuesError<CspwatchRedisErrorCode> {
  /** The marker every copy of this package sets on its errors. */
  static readonly kind: string = '@cspwatch/redis.CspwatchRedisError';
  /** Always `'CspwatchRedisError'`. */
  override readonly name = 'CspwatchRedisError' as const;
}

/**
 * Tells whether a value is a {@link CspwatchRedisError}, even one thrown by another installed
 * copy of this package.
 *
 * @example
 * ```ts
 * if (isCspwatchRedisError(error) && error.code === 'redis_unavailable') return res.status(503).end();
 * ```
 */
export function isCspwatchRedisError(value: unknown): value is CspwatchRedisError {
  return hasErrorKind(value, CspwatchRedisError.kind);
}

/** Throws `invalid_options` (or `code`) listing every issue, when there is at least one. */
export function throwIfIssues(
  what: string,
  issues: readonly RedisOptionIssue[],
  code: 'invalid_options' | 'invalid_input' = 'invalid_options',
): void {
  if (issues.length === 0) return;
  throw new CspwatchRedisError(code, `${what}: ${formatIssues(issues)}`, { issues });
}

/**
 * Runs one Redis call and turns the client's failures into a {@link CspwatchRedisError}: a
 * reply error (`ReplyError`) is `redis_command_failed`, anything else (closed connection,
 * offline queue disabled, command timeout, retries exhausted) is `redis_unavailable`.
 */
export async function callRedis<T>(what: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (isCspwatchRedisError(error)) throw error;
    const name = (error as { name?: unknown } | null)?.name;
    const detail = error instanceof Error ? error.message : String(error);
    if (name === 'ReplyError') {
      throw new CspwatchRedisError('redis_command_failed', `${what}: Redis refused: ${detail}`, {
        cause: error,
      });
    }
    const moving = /Cluster redirections|TRYAGAIN|CLUSTERDOWN/.test(detail);
    const why = moving ? 'the cluster is moving or failing over its slots' : 'Redis is unreachable';
    throw new CspwatchRedisError(
      'redis_unavailable',
      `${what}: ${why} (${detail}); nothing was recorded, retry later`,
      { cause: error },
    );
  }
}
