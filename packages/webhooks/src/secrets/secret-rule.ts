import { MIN_SECRET_LENGTH } from '../constants';
import { WebhookVerificationError } from '../errors';

/**
 * The secret rule, in one place: a signing secret is a string of at least
 * {@link MIN_SECRET_LENGTH} code points (not UTF-16 units: eight emoji are long enough).
 * Returns what is wrong, or `undefined` for a valid secret. The message never contains the
 * secret.
 *
 * @example
 * ```ts
 * const problem = secretProblem(process.env.CSPWATCH_WEBHOOK_SECRET);
 * if (problem) throw new Error(`CSPWATCH_WEBHOOK_SECRET: ${problem}`);
 * ```
 */
export function secretProblem(secret: unknown): string | undefined {
  // A code point takes one or two UTF-16 units: only short strings need counting.
  if (
    typeof secret === 'string' &&
    (secret.length >= MIN_SECRET_LENGTH * 2 || [...secret].length >= MIN_SECRET_LENGTH)
  ) {
    return undefined;
  }
  return secret === undefined
    ? 'The secret is missing: an unset environment variable?'
    : `Secrets must be strings of ${MIN_SECRET_LENGTH}+ characters`;
}

/** Throws `invalid_secret` with the {@link secretProblem} message unless the secret is valid. */
export function assertValidSecret(secret: unknown): asserts secret is string {
  const problem = secretProblem(secret);
  if (problem) throw new WebhookVerificationError('invalid_secret', problem);
}

/** Turns the `secret` option (one secret, or several during rotation) into a checked list. */
export function normalizeSecrets(secret: unknown): readonly string[] {
  if (!Array.isArray(secret) || secret.length === 0) {
    assertValidSecret(secret); // throws for an empty list too: it is not a string
    return [secret];
  }
  for (const each of secret) assertValidSecret(each);
  return secret as readonly string[];
}
