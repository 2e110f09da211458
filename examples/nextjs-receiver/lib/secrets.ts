/**
 * The signing secret, plus the previous one while you rotate it. Read on the first request,
 * not when a module loads: `next build` loads route modules, and the secret is a run-time
 * setting that the build machine need not have. `undefined` when the secret is not set.
 */
export function webhookSecrets(): string[] | undefined {
  const current = process.env.CSPWATCH_WEBHOOK_SECRET;
  const previous = process.env.CSPWATCH_WEBHOOK_PREVIOUS_SECRET;
  if (!current) return undefined;
  return previous ? [current, previous] : [current];
}

/** Logged once per refused request when the secret is missing (never the secret itself). */
export const MISSING_SECRET_MESSAGE =
  'CSPWATCH_WEBHOOK_SECRET is not set: refusing webhook deliveries.';
