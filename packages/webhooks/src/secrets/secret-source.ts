import { WebhookVerificationError } from '../errors';
import { normalizeSecrets } from './secret-rule';

/** One signing secret, or several during rotation (any match passes). */
export type WebhookSecrets = string | readonly string[];

/**
 * Gives the signing secret(s) when a delivery is verified, not when your module loads, so a
 * route module (Next.js, Remix, SvelteKit, Workers) builds on a machine without the secret.
 * Sync or async. It is called on every request: keep it cheap (read an environment
 * variable; cache a secrets-manager lookup yourself). The key derived from each secret is
 * cached by the secret's value, as for a plain secret: returning the same secret again costs
 * no key import, and a changed value (a rotated variable) is used from the next request on.
 *
 * What it returns is checked like a plain secret. `undefined` (an unset variable), a secret
 * shorter than 8 characters, a throw or a rejection is `invalid_secret`: a receiver setup
 * error (`isReceiverSetupError`) that the adapters answer with a 500, never a 400, and whose
 * message never contains the secret (a throw or rejection is its `cause`).
 *
 * @example
 * ```ts
 * export const POST = withCspwatchWebhook(handle, {
 *   secret: () => process.env.CSPWATCH_WEBHOOK_SECRET,
 * });
 * ```
 */
export type WebhookSecretFunction = () =>
  | WebhookSecrets
  | undefined
  | PromiseLike<WebhookSecrets | undefined>;

/**
 * The `secret` option: a secret, several during rotation, or a {@link WebhookSecretFunction}
 * that gives them per request.
 */
export type WebhookSecret = WebhookSecrets | WebhookSecretFunction;

/**
 * `options` with its `secret` function called (and awaited) and the secrets it gives checked
 * (`normalizeSecrets`); a throw or rejection is `invalid_secret` with it as `cause`.
 */
export async function withSecretsFromFunction<TOptions extends { secret: WebhookSecret }>(
  options: TOptions,
): Promise<TOptions> {
  let value: Awaited<ReturnType<WebhookSecretFunction>>;
  try {
    value = await (options.secret as WebhookSecretFunction)();
  } catch (cause) {
    throw secretFunctionFailed(cause);
  }
  return { ...options, secret: normalizeSecrets(value) };
}

/** The error for a `secret` function that threw or rejected: `invalid_secret`, with its cause. */
export function secretFunctionFailed(cause: unknown): WebhookVerificationError {
  return new WebhookVerificationError('invalid_secret', 'The secret function failed (see cause)', {
    cause,
  });
}
