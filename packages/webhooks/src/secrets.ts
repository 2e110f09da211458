import { MIN_SECRET_LENGTH } from './constants';
import { WebhookVerificationError } from './errors';

/**
 * Checks one signing secret: a string of at least {@link MIN_SECRET_LENGTH} code points.
 * The message names the rule and the position, never the secret itself.
 */
export function assertValidSecret(secret: unknown): asserts secret is string {
  // A code point takes one or two UTF-16 units: only short strings need counting.
  if (
    typeof secret !== 'string' ||
    (secret.length < MIN_SECRET_LENGTH * 2 && [...secret].length < MIN_SECRET_LENGTH)
  ) {
    throw invalidSecret(secret);
  }
}

function invalidSecret(secret: unknown): WebhookVerificationError {
  return new WebhookVerificationError(
    'invalid_secret',
    secret === undefined
      ? 'The secret is missing: an unset environment variable?'
      : `Secrets must be strings of ${MIN_SECRET_LENGTH}+ characters`,
  );
}

/** Turns the `secret` option (one secret, or several during rotation) into a checked list. */
export function normalizeSecrets(secret: unknown): readonly string[] {
  if (typeof secret === 'string') {
    assertValidSecret(secret);
    return [secret];
  }
  if (!Array.isArray(secret) || secret.length === 0) throw invalidSecret(secret);
  for (const each of secret) assertValidSecret(each);
  return secret as readonly string[];
}
