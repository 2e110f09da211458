/**
 * Next.js adapters for cspwatch webhooks: an App Router route-handler wrapper (Node and
 * Edge runtimes, Web Crypto) and a Pages Router helper. Imports nothing from Next.js.
 *
 * @packageDocumentation
 */

export {
  type NextApiRequestLike,
  type VerifiedRouteHandler,
  type VerifyNextApiRequestOptions,
  verifyNextApiRequest,
  type WithCspwatchWebhookOptions,
  withCspwatchWebhook,
} from './adapters/next';
export {
  createProblemResponse,
  type ProblemResponseLike,
  sendWebhookProblem,
  toWebhookProblem,
  type WebhookProblem,
} from './adapters/problem';
export type { ReadableBodyLike } from './adapters/read-body';
export { type ReadRawBodyOptions, readRawBody } from './adapters/read-raw-body';
export type { AdapterReplayOption } from './adapters/replay';
export { releaseReplayClaim } from './replay/claims';
