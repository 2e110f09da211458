/** Settings of the Node entry, read from the environment. */
export interface ServerConfig {
  port: number;
  host: string;
  secret: string;
}

/**
 * Reads `PORT` (default 3000), `HOST` (default 127.0.0.1) and `CSPWATCH_WEBHOOK_SECRET`
 * (required). Throws an error that says what to set; it never contains the secret.
 */
export function readConfig(env: Record<string, string | undefined>): ServerConfig {
  const secret = env.CSPWATCH_WEBHOOK_SECRET;
  if (!secret) {
    throw new Error(
      'Set CSPWATCH_WEBHOOK_SECRET to the signing secret of your cspwatch webhook channel.',
    );
  }
  if ([...secret].length < 8) {
    throw new Error(
      'CSPWATCH_WEBHOOK_SECRET is too short: a signing secret has at least 8 characters.',
    );
  }
  const port = Number(env.PORT ?? 3000);
  if (env.PORT === '' || !Number.isInteger(port) || port < 0 || port > 65_535) {
    throw new Error(`PORT must be an integer from 0 to 65535, got ${JSON.stringify(env.PORT)}.`);
  }
  return { port, host: env.HOST || '127.0.0.1', secret };
}
