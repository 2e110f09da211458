import { describeValue, issue } from '@cspwatch/internal';
import { SIGNATURE_HEADER } from '../constants';
import { invalidOptions } from '../errors';
import { createReplayGuard, type ReplayGuard, type ReplayGuardOptions } from '../replay/guard';
import type { VerifyOptions } from '../signature/verify';

/**
 * The `replay` option of the adapters: `true` for the defaults (a memory store keyed on the
 * signature), the guard's options (the tolerance and header names come from the adapter),
 * or a guard made with `createReplayGuard`.
 */
export type AdapterReplayOption =
  | boolean
  | Omit<ReplayGuardOptions, 'toleranceMs' | 'signatureHeader'>
  | ReplayGuard;

/** Builds an adapter's replay guard from its options, once; `undefined` when it has none. */
export function adapterReplayGuard(
  options: VerifyOptions & { replay?: AdapterReplayOption },
): ReplayGuard | undefined {
  const { replay } = options;
  if (replay === undefined || replay === false) return undefined;
  if (isReplayGuard(replay)) return checkGuardHeader(replay, options.headerNames?.signature);
  if (replay !== true && (typeof replay !== 'object' || replay === null)) {
    throw invalidOptions(
      issue(
        'replay',
        'wrong_type',
        `must be true, false, the guard's options or a guard, got ${describeValue(replay)}`,
      ),
    );
  }
  const guardOptions: ReplayGuardOptions = { ...(replay === true ? {} : replay) };
  if (options.toleranceMs !== undefined) guardOptions.toleranceMs = options.toleranceMs;
  const signatureHeader = options.headerNames?.signature;
  if (signatureHeader !== undefined) guardOptions.signatureHeader = signatureHeader;
  return createReplayGuard(guardOptions);
}

/**
 * A ready guard keyed on the signature must read the header the adapter verifies: keyed on
 * another one, it would let a replay through with that header set to anything.
 */
function checkGuardHeader(guard: ReplayGuard, verified = SIGNATURE_HEADER): ReplayGuard {
  const read = guard.signatureHeader;
  if (read === undefined || read === verified.toLowerCase()) return guard;
  throw invalidOptions(
    issue(
      'replay',
      'invalid',
      `the guard reads the signature from ${read}, but this adapter verifies ${verified}: create it with createReplayGuard({ signatureHeader: '${verified}' })`,
    ),
  );
}

/** Releases a claim in the background; a failed release is reported, never thrown. */
export function releaseInBackground(release: () => Promise<void>): void {
  release().catch((error: unknown) => {
    // The claim stays until its ttl: the sender's retry is refused until then, nothing worse.
    globalThis.process?.emitWarning?.(
      error instanceof Error ? error : String(error),
      'CspwatchWebhookWarning',
    );
  });
}

/** Tells a guard made with `createReplayGuard` from the guard's options. */
export function isReplayGuard(value: unknown): value is ReplayGuard {
  return typeof (value as Partial<ReplayGuard> | null)?.claim === 'function';
}

/** Checks the `replay` option of a per-request function: it must be a ready guard. */
export function checkReplayGuard(value: unknown): ReplayGuard | undefined {
  if (value === undefined || isReplayGuard(value)) return value;
  throw invalidOptions(
    issue(
      'replay',
      'wrong_type',
      'must be a guard from createReplayGuard(), made once and reused for every request',
    ),
  );
}
