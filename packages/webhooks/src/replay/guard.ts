import {
  checkInteger,
  checkNonEmptyString,
  checkUnknownKeys,
  describeValue,
  type Issue,
  issue,
} from '@cspwatch/internal';
import type { CspwatchEvent } from '../alerts/payloads';
import { DEFAULT_TOLERANCE_MS, SIGNATURE_HEADER } from '../constants';
import { invalidOptions, isWebhookVerificationError, WebhookVerificationError } from '../errors';
import { readHeader, type WebhookHeadersInput } from '../signature/headers';
import { createMemoryReplayStore } from './memory-store';
import type { ReplayStore, SyncReplayStore } from './replay-store';

/**
 * What a claim is keyed on:
 * - `'signature'`: the signed request itself. The same request sent again (a replay by
 *   whoever captured it) is refused; the sender's own retry, re-signed with a new
 *   timestamp, is a new request and gets through.
 * - `'id'`: the alert's payload `id`. The same alert delivered again (a retry after a lost
 *   response, or a replay) is refused: idempotency, at most one accepted delivery per alert.
 */
export type ReplayKey = 'signature' | 'id';

/** Options of {@link createReplayGuard}. */
export interface ReplayGuardOptions {
  /**
   * Where claims are kept. One process: the default, a memory store of this guard's own
   * (keyed on the signature or id alone, as it serves no other receiver). Several instances:
   * a shared store (Redis) so a replay sent to another instance is caught too.
   * @default createMemoryReplayStore()
   */
  store?: ReplayStore;
  /**
   * What a claim is keyed on; see {@link ReplayKey}.
   * @default 'signature'
   */
  key?: ReplayKey;
  /**
   * How long a claim lasts, in ms. The default outlives every timestamp the verifier still
   * accepts; with `key: 'id'`, raise it to cover your sender's whole retry schedule.
   * @default 2 × toleranceMs + 60000
   */
  ttlMs?: number;
  /**
   * Prepended to every claim's key, so one shared store can serve several receivers.
   * @default 'cspwatch:'
   */
  prefix?: string;
  /**
   * The verifier's tolerance, in ms: the default `ttlMs` derives from it (adapters pass theirs).
   * @default 300000
   */
  toleranceMs?: number;
  /**
   * Name of the signature header, when not the default (adapters pass theirs).
   * @default 'x-cspwatch-signature'
   */
  signatureHeader?: string;
}

/** The keys of {@link ReplayGuardOptions}. */
const GUARD_OPTIONS = ['store', 'key', 'ttlMs', 'prefix', 'toleranceMs', 'signatureHeader'];

/** A delivery's claim in the store: release it when your handler fails, so a retry succeeds. */
export interface ReplayClaim {
  /** The key claimed, e.g. `cspwatch:sig:sha256=…` (the store holds it as is). */
  readonly key: string;
  /** Frees the claim (idempotent); the same delivery is accepted again afterwards. */
  release(): Promise<void>;
}

/** Claims verified deliveries so each is accepted at most once. See {@link createReplayGuard}. */
export interface ReplayGuard {
  /**
   * Claims a delivery whose signature was already verified. Resolves to its claim; throws
   * `replayed_delivery` when it was claimed before, `replay_store_unavailable` when the
   * store cannot answer (full, unreachable): never accepts a delivery it could not check.
   */
  claim(event: CspwatchEvent, headers: WebhookHeadersInput): Promise<ReplayClaim>;
  /** {@link ReplayGuard.claim} for a {@link SyncReplayStore}, on the Node sync path. */
  claimSync(event: CspwatchEvent, headers: WebhookHeadersInput): ReplayClaim;
  /**
   * The header a guard keyed on the signature reads (lower case); absent when it is keyed on
   * the payload id. An adapter given the guard refuses one that reads another header than it
   * verifies.
   */
  readonly signatureHeader?: string;
}

/**
 * Creates a replay guard: claim each delivery after `verifyWebhook` accepted it, before
 * acting on it. The adapters take the same options as `replay` and do this for you.
 *
 * @example
 * ```ts
 * const guard = createReplayGuard({ key: 'id' });
 * const event = await verifyWebhook({ body, headers, secret });
 * const claim = await guard.claim(event, headers); // throws replayed_delivery the 2nd time
 * try {
 *   await saveAlert(event);
 * } catch (error) {
 *   await claim.release(); // so the sender's retry is accepted
 *   throw error;
 * }
 * ```
 */
export function createReplayGuard(options: ReplayGuardOptions = {}): ReplayGuard {
  if (typeof options !== 'object' || options === null) {
    throw invalidOptions(
      issue(
        '(options)',
        'not_an_object',
        `must be an options object or nothing, got ${describeValue(options)}`,
      ),
    );
  }
  const { key: keyKind = 'signature', prefix = 'cspwatch:' } = options;
  const store: ReplayStore = options.store ?? createMemoryReplayStore();
  const ttlMs = options.ttlMs ?? 2 * (options.toleranceMs ?? DEFAULT_TOLERANCE_MS) + 60_000;
  const issues: Issue[] = [];
  // A misspelt option is refused: `keys: 'id'` would silently key on the signature.
  checkUnknownKeys(issues, options, GUARD_OPTIONS);
  if (typeof store?.claim !== 'function' || typeof store.release !== 'function') {
    issues.push(issue('store', 'wrong_type', 'must have claim(key, ttlMs) and release(key)'));
  }
  if (keyKind !== 'signature' && keyKind !== 'id') {
    issues.push(
      issue('key', 'invalid', `must be 'signature' or 'id', got ${describeValue(keyKind)}`),
    );
  }
  checkInteger(issues, 'ttlMs', ttlMs, { min: 1, max: Number.MAX_SAFE_INTEGER, unit: 'ms' });
  checkNonEmptyString(issues, 'signatureHeader', options.signatureHeader);
  if (typeof prefix !== 'string') {
    issues.push(issue('prefix', 'wrong_type', `must be a string, got ${describeValue(prefix)}`));
  }
  if (issues.length > 0) throw invalidOptions(...issues);
  const signatureHeader = (options.signatureHeader ?? SIGNATURE_HEADER).toLowerCase();

  const namespace = `${prefix}${keyKind === 'id' ? 'id' : 'sig'}:`;

  /** The key in the store: the namespace, then the signature header or the payload id. */
  const storeKey = (event: CspwatchEvent, headers: WebhookHeadersInput): string => {
    const value = keyKind === 'id' ? event.id : readHeader(headers, signatureHeader);
    if (typeof value !== 'string' || value === '') {
      throw new WebhookVerificationError(
        'invalid_json',
        keyKind === 'id'
          ? 'The alert has no string id to guard against a second delivery'
          : `Missing ${signatureHeader} header`,
      );
    }
    return namespace + value;
  };

  const settle = (key: string, claimed: boolean): ReplayClaim => {
    if (!claimed) {
      throw new WebhookVerificationError(
        'replayed_delivery',
        keyKind === 'id'
          ? 'This alert id was already accepted (or is being handled): a repeated delivery'
          : 'This exact delivery was already accepted: a replay',
      );
    }
    return new StoreClaim(store, key);
  };

  return {
    ...(keyKind === 'id' ? {} : { signatureHeader }),
    async claim(event, headers) {
      const key = storeKey(event, headers);
      let claimed: unknown;
      try {
        claimed = await store.claim(key, ttlMs);
      } catch (error) {
        throw storeUnavailable(error);
      }
      return settle(key, claimed === true);
    },
    claimSync(event, headers) {
      const key = storeKey(event, headers);
      let claimed: unknown;
      try {
        claimed = store.claim(key, ttlMs);
      } catch (error) {
        throw storeUnavailable(error);
      }
      if (
        claimed !== true &&
        typeof (claimed as Promise<unknown> | undefined)?.then === 'function'
      ) {
        (claimed as Promise<unknown>).catch(() => {});
        throw invalidOptions(
          issue(
            'store',
            'invalid',
            'claimSync needs a SyncReplayStore: this store answered a Promise',
          ),
        );
      }
      return settle(key, claimed === true);
    },
  };
}

/** One claim: a single small object per accepted delivery (no closures). */
class StoreClaim implements ReplayClaim {
  readonly key: string;
  readonly #store: ReplayStore;
  #released: Promise<void> | undefined;

  constructor(store: ReplayStore, key: string) {
    this.#store = store;
    this.key = key;
  }

  release(): Promise<void> {
    this.#released ??= Promise.resolve().then(() => this.#store.release(this.key));
    return this.#released;
  }
}

function storeUnavailable(error: unknown): WebhookVerificationError {
  if (isWebhookVerificationError(error)) return error;
  return new WebhookVerificationError(
    'replay_store_unavailable',
    'The replay store did not answer, so this delivery was refused rather than accepted ' +
      'unchecked; the sender retries later.',
    { cause: error },
  );
}
