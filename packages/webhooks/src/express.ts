/**
 * Express middleware for cspwatch webhooks (Node.js). Imports nothing from Express at run
 * time: the request and response types are structural.
 *
 * @packageDocumentation
 */

export {
  type CspwatchWebhookOptions,
  cspwatchWebhook,
  type ExpressRequestLike,
  type ExpressResponseLike,
  getCspwatchEvent,
  type NextFunctionLike,
} from './adapters/express';
export {
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
