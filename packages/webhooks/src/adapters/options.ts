import { checkUnknownKeys, type Issue } from '@cspwatch/internal';
import { invalidOptions } from '../errors';
import { normalizeSecrets } from '../secrets/secret-rule';
import { checkVerifyOptions, type VerifyOptions } from '../signature/verify';

/** Every option an adapter takes: the verify options, then the adapters' own. */
const ADAPTER_OPTIONS = [
  'secret',
  'toleranceMs',
  'now',
  'headerNames',
  'maxBodyBytes',
  'onRejected',
  'replay',
];

/**
 * Validates adapter options once, when the adapter is created, so a bad secret or
 * tolerance fails at start-up rather than on the first delivery. A misspelt option is
 * refused, not ignored: `replays: true` would leave the replay guard off without a word.
 * A `secret` function is called per request instead, and its result checked then.
 */
export function checkAdapterOptions(options: VerifyOptions): void {
  checkVerifyOptions(options);
  const issues: Issue[] = [];
  checkUnknownKeys(issues, options, ADAPTER_OPTIONS);
  if (issues.length > 0) throw invalidOptions(...issues);
  if (typeof options.secret !== 'function') normalizeSecrets(options.secret);
}
