import {
  checkFunction,
  checkNonEmptyString,
  checkUnknownKeys,
  type Issue,
  isOptionsObject,
} from '@cspwatch/internal';
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
 * Validates adapter options once, when the adapter is created, so a bad secret, tolerance,
 * clock or header name fails at start-up rather than on the first delivery. A misspelt option is
 * refused, not ignored: `replays: true` would leave the replay guard off without a word.
 * A `secret` function is called per request instead, and its result checked then.
 */
export function checkAdapterOptions(options: VerifyOptions): void {
  const issues: Issue[] = [];
  if (isOptionsObject(options)) {
    checkUnknownKeys(issues, options, ADAPTER_OPTIONS);
    // Checked here, once, rather than as a TypeError at the first delivery.
    checkFunction(issues, 'now', options.now);
    checkNonEmptyString(issues, 'headerNames.timestamp', options.headerNames?.timestamp);
    checkNonEmptyString(issues, 'headerNames.signature', options.headerNames?.signature);
  }
  if (issues.length > 0) throw invalidOptions(...issues);
  checkVerifyOptions(options);
  if (typeof options.secret !== 'function') normalizeSecrets(options.secret);
}
