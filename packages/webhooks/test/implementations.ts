import type { CspwatchEvent } from '../src/alerts/payloads';
import type {
  SignWebhookOptions,
  VerifyWebhookOptions,
  WebhookHeaders,
  WebhookVerificationErrorCode,
} from '../src/index';
import * as webEntry from '../src/index';
import * as nodeEntry from '../src/node';

/** One way to sign and verify; every rule is checked against each of them. */
export interface Implementation {
  name: string;
  sign(options: SignWebhookOptions): Promise<WebhookHeaders>;
  verify(options: VerifyWebhookOptions): Promise<CspwatchEvent>;
  /** The signature-only check: resolves to the body it was given. */
  verifySignature(options: VerifyWebhookOptions): Promise<unknown>;
}

/** Web Crypto, node:crypto async, and node:crypto sync (wrapped so errors become rejections). */
export const implementations: Implementation[] = [
  {
    name: 'web (Web Crypto)',
    sign: webEntry.signWebhook,
    verify: webEntry.verifyWebhook,
    verifySignature: webEntry.verifyWebhookSignature,
  },
  {
    name: 'node (async)',
    sign: nodeEntry.signWebhook,
    verify: nodeEntry.verifyWebhook,
    verifySignature: nodeEntry.verifyWebhookSignature,
  },
  {
    name: 'node (sync)',
    sign: async (options) => nodeEntry.signWebhookSync(options),
    verify: async (options) => nodeEntry.verifyWebhookSync(options),
    verifySignature: async (options) => nodeEntry.verifyWebhookSignatureSync(options),
  },
];

/** A fixed clock for tests. */
export const NOW = 1_700_000_000_000;

/** A valid secret used across tests. */
export const SECRET = 'whsec_test_secret_1';

/** A small alert body as the service would send it. */
export const ALERT_BODY = JSON.stringify({
  id: '0b8a3c55-1d4e-4f0a-9c2b-7e6d5f4a3b2c',
  eventType: 'csp-violation:new-type',
  rule: 'New violation kinds',
  website: { id: 'ws_1', name: 'Shop', url: 'https://shop.example.com' },
  findings: [
    {
      kind: 'csp-violation:new-type',
      key: 'script-src-elem\nhttps://cdn.example.net',
      effectiveDirective: 'script-src-elem',
      blockedUrlOrigin: 'https://cdn.example.net',
      firstSeen: '2023-11-14T22:10:00.000Z',
      count: 2,
    },
  ],
  findingsCount: 1,
  window: { start: '2023-11-14T22:08:20.000Z', end: '2023-11-14T22:13:20.000Z' },
  dashboardUrl: 'https://app.cspwatch.example/alerts/0b8a3c55',
});

/** The error code a verification settles with, or `'ok'`: for tables of expected outcomes. */
export async function codeOf(
  promise: Promise<unknown>,
): Promise<WebhookVerificationErrorCode | 'ok'> {
  try {
    await promise;
    return 'ok';
  } catch (error) {
    if (webEntry.isWebhookVerificationError(error)) return error.code;
    throw error;
  }
}
