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
export type { AdapterReplayOption } from './adapters/replay';
export {
  type ReadableBodyLike,
  type ReadRawBodyOptions,
  readRawBody,
} from './body/read-body';
export { releaseReplayClaim } from './replay/claims';
