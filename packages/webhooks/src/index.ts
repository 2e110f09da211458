/**
 * @cspwatch/webhooks: Verify cspwatch webhook deliveries: zero-dependency HMAC-SHA256 signature and timestamp checks on Node and every Web-standard runtime, with Express and Next.js adapters.
 *
 * @packageDocumentation
 */

/** The version of this package, as published. */
export const VERSION = '0.0.0';
