/**
 * Where the CLI takes the signing secret from: an environment variable (default
 * `CSPWATCH_WEBHOOK_SECRET`), stdin, or, discouraged, `--secret`. Never printed.
 */
import { MIN_SECRET_LENGTH, secretProblem } from '@cspwatch/webhooks';
import type { CliIo } from './cli-io';
import { UsageError } from './usage-error';

/** The variable the secret is read from when no source is given. */
export const DEFAULT_SECRET_ENV = 'CSPWATCH_WEBHOOK_SECRET';

/** The secret the options point to, checked against the secret rule. */
export async function readSecret(values: Record<string, unknown>, io: CliIo): Promise<string> {
  const secret = await readSecretSource(values, io);
  if (secretProblem(secret) !== undefined) {
    throw new UsageError(`the secret must be at least ${MIN_SECRET_LENGTH} characters`);
  }
  return secret;
}

async function readSecretSource(values: Record<string, unknown>, io: CliIo): Promise<string> {
  const sources = ['secret', 'secret-env', 'secret-stdin'].filter(
    (key) => values[key] !== undefined,
  );
  if (sources.length > 1)
    throw new UsageError('give exactly one of --secret, --secret-env, --secret-stdin');
  if (values.secret !== undefined) {
    io.stderr(
      'warning: --secret exposes the secret in shell history and process lists; prefer --secret-env or --secret-stdin\n',
    );
    return values.secret as string;
  }
  if (values['secret-stdin']) return (await io.readStdin()).replace(/\r?\n$/, '');
  const name = (values['secret-env'] as string | undefined) ?? DEFAULT_SECRET_ENV;
  const secret = io.env[name];
  if (secret === undefined || secret === '') {
    // A custom name is not echoed: people do pass the secret itself to --secret-env.
    const which = name === DEFAULT_SECRET_ENV ? name : 'named by --secret-env';
    throw new UsageError(
      `environment variable ${which} is not set (--secret-env takes a variable's name, not the secret)`,
    );
  }
  return secret;
}
