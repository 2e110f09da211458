/**
 * Verify cspwatch webhook deliveries on every runtime (Web Crypto): Next.js edge, Cloudflare
 * Workers, Deno, Bun, browsers. On Node.js the `node` export condition serves the same API
 * backed by node:crypto (see `@cspwatch/webhooks/node` for the synchronous functions).
 *
 * @packageDocumentation
 */

export {
  safeVerifyWebhook,
  signWebhook,
  verifyWebhook,
  verifyWebhookSignature,
} from './crypto/web';
// Everything but the crypto backend, listed once for this entry and the Node one.
export * from './public-api';
