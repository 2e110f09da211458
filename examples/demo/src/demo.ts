import { randomBytes } from 'node:crypto';
import type { Server } from 'node:http';
import { createCspwatchClient } from '@cspwatch/client';
import { startMockServer } from '@cspwatch/mock-server';
import { createWebhookSender } from '@cspwatch/webhook-sender';
import { createOutput, shouldUseColor } from './output';
import { demoAlert } from './steps/alert';
import { type ApiKeysStepResult, listApiKeysStep } from './steps/api-keys';
import { type AutoDisableStepResult, autoDisableStep } from './steps/auto-disable';
import { startReceiver, type WebhooksStepResult, webhooksStep } from './steps/webhooks';
import { createWebsiteStep, type WebsiteStepResult } from './steps/website';

/** Options of {@link runDemo}. */
export interface DemoOptions {
  /** Where output goes. @default process.stdout.write */
  write?: (text: string) => void;
  /** Colour the output. @default stdout is a TTY and NO_COLOR is unset */
  color?: boolean;
}

/** Everything the demo observed; `ok` is true when every step behaved as it should. */
export interface DemoSummary {
  ok: boolean;
  website: WebsiteStepResult;
  apiKeys: ApiKeysStepResult;
  webhooks: WebhooksStepResult;
  autoDisable: AutoDisableStepResult;
  durationMs: number;
}

/**
 * Runs the whole demo on loopback: mock service, client, Express receiver, sender and
 * auto-disable. Every server it starts is closed before it returns or throws.
 */
export async function runDemo(options: DemoOptions = {}): Promise<DemoSummary> {
  const started = performance.now();
  const write = options.write ?? ((text: string) => void process.stdout.write(text));
  const out = createOutput(write, options.color ?? shouldUseColor(process.stdout, process.env));
  // A fresh secret per run; it is never printed.
  const secret = `whsec_${randomBytes(24).toString('base64url')}`;
  const cleanup: (() => Promise<void>)[] = [];
  try {
    write(
      out.style('bold', 'cspwatch SDK demo') +
        out.style('dim', ' (mock service on loopback; no account, no network)\n'),
    );
    const mock = await startMockServer();
    cleanup.push(() => mock.close());
    out.line(`mock service: ${mock.url}`);
    const client = createCspwatchClient({ baseUrl: mock.url, token: mock.tokens.admin });
    const workspaceId = mock.workspaceIds.main;

    const website = await createWebsiteStep(client, workspaceId, out);
    const apiKeys = await listApiKeysStep(client, workspaceId, out);

    const receiverLog: string[] = [];
    const receiver = await startReceiver(secret, (line) => {
      receiverLog.push(line);
      out.line(out.style('dim', `receiver │ ${line}`));
    });
    cleanup.push(() => closeServer(receiver.server));
    // Loopback targets are refused by default; this opt-in exists for demos and tests only.
    const sender = createWebhookSender({ dangerouslyAllowLoopback: true });
    cleanup.push(() => sender.close());
    const alert = () => demoAlert({ id: website.id, url: 'https://shop.example.com' });

    const webhooks = await webhooksStep(receiver.url, receiverLog, sender, alert, secret, out);
    const autoDisable = await autoDisableStep(mock, sender, alert, secret, out);

    const durationMs = Math.round(performance.now() - started);
    const ok =
      apiKeys.listed === apiKeys.total &&
      webhooks.valid.accepted &&
      webhooks.tampered.status === 400 &&
      webhooks.stale.status === 400 &&
      autoDisable.failuresUntilDisabled === 5 &&
      autoDisable.disabled &&
      autoDisable.skippedWhenDisabled &&
      autoDisable.requestsReceived === 5;
    const summary: DemoSummary = { ok, website, apiKeys, webhooks, autoDisable, durationMs };
    printSummary(out, summary);
    return summary;
  } finally {
    for (const close of cleanup.reverse()) await close();
  }
}

function printSummary(out: ReturnType<typeof createOutput>, s: DemoSummary): void {
  out.step('Summary');
  const check = (pass: boolean, text: string) => (pass ? out.ok(text) : out.fail(text));
  check(true, `website created, reports go to ${s.website.endpointUrl}`);
  check(
    s.apiKeys.listed === s.apiKeys.total,
    `${s.apiKeys.listed} API keys over ${s.apiKeys.pages} pages`,
  );
  check(s.webhooks.valid.accepted, `valid alert accepted (HTTP ${s.webhooks.valid.status})`);
  check(
    s.webhooks.tampered.status === 400 && s.webhooks.stale.status === 400,
    `tampered and stale deliveries rejected (HTTP ${s.webhooks.tampered.status}, ${s.webhooks.stale.status})`,
  );
  check(
    s.autoDisable.disabled && s.autoDisable.skippedWhenDisabled,
    `channel disabled after ${s.autoDisable.failuresUntilDisabled} failures; the next delivery was skipped`,
  );
  out.line(out.style('dim', `finished in ${(s.durationMs / 1000).toFixed(1)} s`));
}

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}
