import { normalizeSecrets } from '../secrets/secret-rule';
import { checkVerifyOptions, type VerifyOptions } from '../signature/verify';

/**
 * Validates adapter options once, when the adapter is created, so a bad secret or
 * tolerance fails at start-up rather than on the first delivery. A `secret` function is
 * called per request instead, and its result checked then.
 */
export function checkAdapterOptions(options: VerifyOptions): void {
  checkVerifyOptions(options);
  if (typeof options.secret !== 'function') normalizeSecrets(options.secret);
}
