/**
 * The runtime smoke suite: the same checks on every runtime of the matrix, against the BUILT
 * packages, imported by their public names so each runtime's resolver picks the entry from
 * the package `exports`. Written in TypeScript so `pnpm --filter @cspwatch/bench typecheck`
 * also proves the payload types discriminate on `eventType`; esbuild turns it into plain ESM.
 */
import { createCspwatchClient } from '@cspwatch/client';
import {
  type CspViolationNewTypeFinding,
  type CspwatchEvent,
  createReplayGuard,
  isCspViolationNewTypeEvent,
  isWebhookVerificationError,
  SIGNATURE_HEADER,
  safeVerifyWebhook,
  signWebhook,
  TIMESTAMP_HEADER,
  verifyWebhook,
} from '@cspwatch/webhooks';
import { createSampleAlert, createSignedDelivery } from '@cspwatch/webhooks/testing';

/** What the host passes to the suite: a known-answer vector and where the mock server is. */
export interface SmokeConfig {
  secret: string;
  timestamp: number;
  body: string;
  /** `sha256=<hex>` computed by the host with node:crypto. */
  expectedSignature: string;
  mock: { url: string; token: string; workspaceId: string; keyCount: number } | null;
}

/** One check's outcome. */
export interface SmokeCheck {
  name: string;
  ok: boolean;
  detail: string;
}

type Check = () => Promise<string>;

async function attempt(name: string, check: Check): Promise<SmokeCheck> {
  try {
    return { name, ok: true, detail: await check() };
  } catch (error) {
    const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    return { name, ok: false, detail: message.slice(0, 300) };
  }
}

function expect(condition: boolean, message: string): void {
  if (!condition) throw new Error(message);
}

async function expectRejection(promise: Promise<unknown>, code: string): Promise<string> {
  try {
    await promise;
  } catch (error) {
    expect(isWebhookVerificationError(error), `expected WebhookVerificationError, got ${error}`);
    const actual = (error as { code: string }).code;
    expect(actual === code, `expected code ${code}, got ${actual}`);
    return code;
  }
  throw new Error(`accepted a delivery that must be rejected (${code})`);
}

function describeFinding(event: CspwatchEvent): string {
  // `event.eventType === '…'` alone does not narrow while the generic member's eventType is
  // `string`; the package's guard does (and typechecks the finding type below).
  if (isCspViolationNewTypeEvent(event)) {
    const findings: CspViolationNewTypeFinding[] = event.findings;
    const first = findings[0];
    expect(first !== undefined, 'sample alert has no findings');
    expect(first!.kind === 'csp-violation:new-type', `finding kind is ${first!.kind}`);
    expect(typeof first!.effectiveDirective === 'string', 'effectiveDirective is not a string');
    return `${event.eventType}: ${first!.effectiveDirective}`;
  }
  return `generic ${event.eventType}`;
}

/** Runs every check (webhooks, then the client against the mock) and returns their outcomes; never throws. */
export async function runSmoke(config: SmokeConfig): Promise<SmokeCheck[]> {
  const checks = await runWebhooksSmoke(config);
  checks.push(await clientCheck(config));
  return checks;
}

/** The `@cspwatch/webhooks` checks alone (runtimes that run only that package: Node 18, browsers). */
export async function runWebhooksSmoke(config: SmokeConfig): Promise<SmokeCheck[]> {
  const { secret, timestamp, body } = config;
  const now = () => timestamp + 1_000;
  const checks: SmokeCheck[] = [];
  checks.push(
    await attempt('sign', async () => {
      const headers = await signWebhook({ body, secret, timestamp });
      expect(headers[SIGNATURE_HEADER] === config.expectedSignature, 'signature differs');
      expect(headers[TIMESTAMP_HEADER] === String(timestamp), 'timestamp header differs');
      return 'known-answer vector matches node:crypto';
    }),
  );
  checks.push(
    await attempt('verify valid', async () => {
      const headers = await signWebhook({ body, secret, timestamp });
      await verifyWebhook({ body, headers, secret, now });
      const delivery = await createSignedDelivery({ secret });
      const event = await verifyWebhook({ body: delivery.body, headers: delivery.headers, secret });
      const bytes = new TextEncoder().encode(delivery.body);
      await verifyWebhook({ body: bytes, headers: new Headers(delivery.headers), secret });
      return `string, Uint8Array and Headers accepted (${event.eventType})`;
    }),
  );
  checks.push(
    await attempt('reject tampered', async () => {
      const headers = await signWebhook({ body, secret, timestamp });
      const tampered = body.replace('"', "'");
      await expectRejection(
        verifyWebhook({ body: tampered, headers, secret, now }),
        'signature_mismatch',
      );
      const wrongSecret = `${secret}x`;
      await expectRejection(
        verifyWebhook({ body, headers, secret: wrongSecret, now }),
        'signature_mismatch',
      );
      const late = () => timestamp + 300_001;
      await expectRejection(
        verifyWebhook({ body, headers, secret, now: late }),
        'timestamp_too_old',
      );
      return 'tampered body, wrong secret and stale timestamp rejected';
    }),
  );
  checks.push(
    await attempt('typed payload', async () => {
      const sample = createSampleAlert();
      const delivery = await createSignedDelivery({ secret, payload: sample });
      const known = await verifyWebhook({ body: delivery.body, headers: delivery.headers, secret });
      const knownText = describeFinding(known);
      expect(knownText.startsWith('csp-violation:new-type'), `sample not narrowed: ${knownText}`);
      const futureBody = JSON.stringify({ ...sample, eventType: 'future:event', findings: [{}] });
      const futureHeaders = await signWebhook({ body: futureBody, secret });
      const future = await verifyWebhook({ body: futureBody, headers: futureHeaders, secret });
      expect(describeFinding(future) === 'generic future:event', 'unknown eventType mishandled');
      return `${knownText}; unknown eventType returned as generic`;
    }),
  );
  checks.push(
    await attempt('bodies and replay guard', async () => {
      const headers = await signWebhook({ body, secret, timestamp });
      const bytes = new TextEncoder().encode(body);
      await verifyWebhook({ body: bytes.buffer, headers, secret, now });
      await verifyWebhook({ body: new DataView(bytes.buffer), headers, secret, now });
      const guard = createReplayGuard();
      const event = await verifyWebhook({ body, headers, secret, now });
      await guard.claim(event, headers);
      await expectRejection(guard.claim(event, headers), 'replayed_delivery');
      const result = await safeVerifyWebhook({ body: `${body} `, headers, secret, now });
      expect(!result.ok && result.code === 'signature_mismatch', 'safeVerifyWebhook result');
      return 'ArrayBuffer and DataView bodies, replay refused, safeVerifyWebhook result';
    }),
  );
  return checks;
}

function clientCheck(config: SmokeConfig): Promise<SmokeCheck> {
  const mock = config.mock;
  return attempt('client lists keys', async () => {
    expect(mock !== null, 'the mock server did not start on the host');
    const client = createCspwatchClient({ baseUrl: mock!.url, token: mock!.token });
    const ids = new Set<string>();
    let yielded = 0;
    for await (const key of client.apiKeys.list(mock!.workspaceId, { limit: 7 })) {
      expect(key.workspaceId === mock!.workspaceId, `key of workspace ${key.workspaceId}`);
      ids.add(key.id);
      yielded += 1;
    }
    const expected = mock!.keyCount;
    expect(ids.size === expected, `listed ${ids.size} distinct keys, expected ${expected}`);
    expect(yielded === expected, `yielded ${yielded} keys for ${expected} distinct (duplicates)`);
    return `${ids.size} keys over fetch, each once, pages of 7`;
  });
}
