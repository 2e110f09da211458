/**
 * Verify cspwatch webhooks from a Fetch `Request`: Hono, Bun.serve, Deno.serve, Cloudflare
 * Workers and any other Web-standard server. Web Crypto only.
 *
 * @packageDocumentation
 */

export { type VerifyRequestOptions, verifyRequest } from './adapters/fetch';
export { createProblemResponse, toWebhookProblem, type WebhookProblem } from './adapters/problem';
export { type ReadRawBodyOptions, type RequestLike, readRawBody } from './body/read-body';
export { releaseReplayClaim } from './replay/claims';
