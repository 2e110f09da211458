/**
 * The signing secret, plus the previous one while you rotate it, read from the environment
 * when a delivery arrives. Pass the function itself as `secret`: `next build` loads route
 * modules on a machine that need not have the secret. While `CSPWATCH_WEBHOOK_SECRET` is
 * unset it gives `undefined`, which `@cspwatch/webhooks` answers with a 500 (`invalid_secret`,
 * the secret never printed), never a 400 that the sender would count against the channel.
 */
export function webhookSecrets(): string[] | undefined {
  const current = process.env.CSPWATCH_WEBHOOK_SECRET;
  const previous = process.env.CSPWATCH_WEBHOOK_PREVIOUS_SECRET;
  if (!current) return undefined;
  return previous ? [current, previous] : [current];
}
