/**
 * The Node.js build of `@cspwatch/webhooks`: the same API backed by node:crypto, plus
 * synchronous `signWebhookSync` and `verifyWebhookSync`, and `createSampleAlert` for senders
 * (kept out of the Web entry's size budget). Served automatically under the `node` export
 * condition; import `@cspwatch/webhooks/node` for these extras.
 *
 * @packageDocumentation
 */

export { createSampleAlert, type SampleAlertOverrides } from './alerts/sample-alert';
export { type ReadRawBodyOptions, readRawBody } from './body/read-body';
export {
  safeVerifyWebhook,
  safeVerifyWebhookSync,
  signWebhook,
  signWebhookSync,
  verifyWebhook,
  verifyWebhookSignature,
  verifyWebhookSignatureSync,
  verifyWebhookSync,
} from './crypto/node';
// Everything but the crypto backend, listed once for this entry and the Web one.
export * from './public-api';
