/**
 * Fastify plugin for cspwatch webhooks (Node.js). Imports nothing from Fastify at run
 * time: the instance, request and reply types are structural.
 *
 * @packageDocumentation
 */

export {
  type CspwatchFastifyOptions,
  type CspwatchFastifyPlugin,
  cspwatchFastify,
  type FastifyInstanceLike,
  type FastifyReplyLike,
  type FastifyRequestLike,
  getCspwatchEvent,
} from './adapters/fastify';
export { toWebhookProblem, type WebhookProblem } from './adapters/problem';
export type { AdapterReplayOption } from './adapters/replay';
export { type ReadRawBodyOptions, readRawBody } from './body/read-body';
