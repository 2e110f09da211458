import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createApp } from '@cspwatch/example-express-receiver';
import type { WebhookSender } from '@cspwatch/webhook-sender';
import { type CspwatchEvent, signWebhook } from '@cspwatch/webhooks';
import type { Output } from '../output';

/** One delivery and how the receiver answered. */
export interface DeliveryOutcome {
  status: number | null;
  accepted: boolean;
  /** The `code` of the receiver's problem+json answer, when it refused the delivery. */
  code?: string;
}

/** What the webhook step observed. */
export interface WebhooksStepResult {
  valid: DeliveryOutcome;
  tampered: DeliveryOutcome;
  stale: DeliveryOutcome;
  /** Every line the receiver logged, in order. */
  receiverLog: string[];
}

/** Starts the Express example receiver on a free loopback port. */
export async function startReceiver(
  secret: string,
  log: (line: string) => void,
): Promise<{ url: string; server: Server }> {
  const server = createServer(createApp({ secret, log }));
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/webhooks/cspwatch`, server };
}

async function post(
  url: string,
  body: string,
  headers: Record<string, string>,
): Promise<DeliveryOutcome> {
  const response = await fetch(url, { method: 'POST', body, headers });
  const text = await response.text();
  if (response.ok) return { status: response.status, accepted: true };
  const problem = parseProblem(text);
  return {
    status: response.status,
    accepted: false,
    ...(typeof problem.code === 'string' ? { code: problem.code } : {}),
  };
}

/**
 * Sends a real alert with the sender (verified by the receiver), then a tampered and a stale
 * delivery signed with `signWebhook` and posted with fetch; both must be rejected with 400.
 */
export async function webhooksStep(
  receiverUrl: string,
  receiverLog: string[],
  sender: WebhookSender,
  alert: () => CspwatchEvent,
  secret: string,
  out: Output,
): Promise<WebhooksStepResult> {
  out.step('Webhooks: the sender delivers, the Express receiver verifies');
  out.line(`receiver → ${receiverUrl}`);
  out.line('(a loopback target: the demo opts in with dangerouslyAllowLoopback; by default the');
  out.line(' sender refuses anything but https to public addresses)');

  const sent = await sender.deliver({ id: 'express-receiver', url: receiverUrl, secret }, alert());
  const valid = { status: sent.status, accepted: sent.ok };
  report(out, 'signed alert from the sender', valid, true);

  const body = JSON.stringify(alert());
  const signed = await signWebhook({ body, secret });
  out.line(
    'every delivery carries two headers; the receiver recomputes the HMAC over "<timestamp>.<body>":',
  );
  out.line(`  x-cspwatch-timestamp: ${signed['x-cspwatch-timestamp']}`);
  out.line(`  x-cspwatch-signature: ${signed['x-cspwatch-signature']}`);
  const tamperedBody = body.replace('"count":12', '"count":1');
  const tampered = await post(receiverUrl, tamperedBody, signed);
  report(out, 'tampered body (a count changed after signing)', tampered, false);

  const staleHeaders = await signWebhook({ body, secret, timestamp: Date.now() - 10 * 60_000 });
  const stale = await post(receiverUrl, body, staleHeaders);
  report(out, 'stale delivery (signed 10 minutes ago)', stale, false);

  return { valid, tampered, stale, receiverLog };
}

function report(
  out: Output,
  what: string,
  outcome: DeliveryOutcome,
  expectAccepted: boolean,
): void {
  const reason = outcome.code ? `, ${outcome.code}` : '';
  const verdict = `${what}: HTTP ${outcome.status} (${outcome.accepted ? 'accepted' : `rejected${reason}`})`;
  if (outcome.accepted === expectAccepted) out.ok(verdict);
  else out.fail(`${verdict}, expected ${expectAccepted ? 'accepted' : 'rejected'}`);
}

function parseProblem(text: string): { code?: unknown } {
  try {
    const parsed: unknown = JSON.parse(text);
    return typeof parsed === 'object' && parsed !== null ? parsed : {};
  } catch {
    return {};
  }
}
