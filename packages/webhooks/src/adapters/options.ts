import { normalizeSecrets } from '../secrets';
import { checkVerifyOptions, type VerifyOptions } from '../verify';

/**
 * Validates adapter options once, when the adapter is created, so a bad secret or
 * tolerance fails at start-up rather than on the first delivery.
 */
export function checkAdapterOptions(options: VerifyOptions): void {
  checkVerifyOptions(options);
  normalizeSecrets(options.secret);
}
