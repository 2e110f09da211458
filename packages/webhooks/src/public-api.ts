/**
 * The public API that the Web entry (`index.ts`) and the Node entry (`node.ts`) share: all of
 * it but the crypto backend, which each entry adds from its own `crypto/` module.
 *
 * @module
 */

export {
  type AlertWebsite,
  type AlertWindow,
  type CspViolationNewTypeEvent,
  type CspViolationNewTypeFinding,
  type CspwatchAlert,
  type CspwatchEvent,
  isCspViolationNewTypeEvent,
  type UnknownCspwatchEvent,
} from './alerts/payloads';
export type { RawBody } from './body/read-body';
export {
  DEFAULT_TOLERANCE_MS,
  MIN_SECRET_LENGTH,
  PROBLEM_TYPE_PREFIX,
  SIGNATURE_HEADER,
  TIMESTAMP_HEADER,
} from './constants';
export {
  isReceiverSetupError,
  isWebhookVerificationError,
  WebhookVerificationError,
  type WebhookVerificationErrorCode,
} from './errors';
export { releaseReplayClaim } from './replay/claims';
export {
  createReplayGuard,
  type ReplayClaim,
  type ReplayGuard,
  type ReplayGuardOptions,
  type ReplayKey,
} from './replay/guard';
export {
  createMemoryReplayStore,
  DEFAULT_MAX_REPLAY_ENTRIES,
  type MemoryReplayStore,
  type MemoryReplayStoreOptions,
} from './replay/memory-store';
export type { ReplayStore, SyncReplayStore } from './replay/replay-store';
export { secretProblem } from './secrets/secret-rule';
export type {
  WebhookSecret,
  WebhookSecretFunction,
  WebhookSecrets,
} from './secrets/secret-source';
export type { WebhookHeadersInput } from './signature/headers';
export type { VerifyWebhookResult } from './signature/safe';
export type { SignWebhookOptions, WebhookHeaders } from './signature/sign';
export type {
  VerifyOptions,
  VerifyWebhookOptions,
  WebhookHeaderNames,
} from './signature/verify';
