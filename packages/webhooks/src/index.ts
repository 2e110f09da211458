/**
 * Verify cspwatch webhook deliveries on every runtime (Web Crypto): Next.js edge, Cloudflare
 * Workers, Deno, Bun, browsers. On Node.js the `node` export condition serves the same API
 * backed by node:crypto (see `@cspwatch/webhooks/node` for the synchronous functions).
 *
 * @packageDocumentation
 */

export {
  DEFAULT_TOLERANCE_MS,
  MIN_SECRET_LENGTH,
  SIGNATURE_HEADER,
  TIMESTAMP_HEADER,
} from './constants';
export {
  safeVerifyWebhook,
  signWebhook,
  verifyWebhook,
  verifyWebhookSignature,
} from './crypto/web';
export {
  isWebhookVerificationError,
  WebhookVerificationError,
  type WebhookVerificationErrorCode,
} from './errors';
export type { WebhookHeadersInput } from './headers';
export {
  type AlertWebsite,
  type AlertWindow,
  type CspViolationNewTypeEvent,
  type CspViolationNewTypeFinding,
  type CspwatchAlert,
  type CspwatchEvent,
  isCspViolationNewTypeEvent,
  type UnknownCspwatchEvent,
} from './payloads';
export { PROBLEM_TYPE_PREFIX } from './problem-type';
export type { RawBody } from './raw-body';
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
export type { VerifyWebhookResult } from './safe';
export type {
  WebhookSecret,
  WebhookSecretFunction,
  WebhookSecrets,
} from './secret-source';
export { secretProblem } from './secrets';
export { isReceiverSetupError } from './setup-errors';
export type { SignWebhookOptions, WebhookHeaders } from './sign';
export type { VerifyOptions, VerifyWebhookOptions, WebhookHeaderNames } from './verify';
