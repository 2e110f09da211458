/**
 * `trigger`: one signed alert to a local handler, like `stripe trigger`, shared by the
 * `cspwatch-mock trigger` command and `POST /_mock/trigger`. The alert is built by the
 * sender's `buildAlert` and delivered by its `deliver` (target policy, signing, no
 * redirects); loopback targets are allowed, since a local handler is the point.
 */
import {
  type BuildAlertInput,
  buildAlert,
  createWebhookSender,
  type DeliveryResult,
} from '@cspwatch/webhook-sender';
import type { CspViolationNewTypeEvent } from '@cspwatch/webhooks';

/** Fields a developer may change on the sample alert (the CLI flags). */
export interface SampleAlertOverrides {
  /** Effective directive of the one finding. @default 'script-src-elem' */
  directive?: string;
  /** Blocked origin of the one finding. @default 'https://cdn.evil.example' */
  origin?: string;
  /** Rule name. @default 'New violation types' */
  rule?: string;
  /** Website URL. @default 'https://shop.example.com' */
  websiteUrl?: string;
}

/** What a trigger sent and what came back. */
export interface TriggerResult {
  /** The alert, exactly as signed and sent. */
  alert: CspViolationNewTypeEvent;
  /** The sender's delivery result (status, cause, response excerpt). */
  result: DeliveryResult;
}

/** The input of the sample `csp-violation:new-type` alert, with overrides applied. */
export function sampleAlertInput(overrides: SampleAlertOverrides = {}): BuildAlertInput {
  const end = Date.now();
  return {
    rule: overrides.rule ?? 'New violation types',
    website: {
      id: 'web_sample',
      name: 'Sample shop',
      url: overrides.websiteUrl ?? 'https://shop.example.com',
    },
    findings: [
      {
        effectiveDirective: overrides.directive ?? 'script-src-elem',
        blockedUrlOrigin: overrides.origin ?? 'https://cdn.evil.example',
        firstSeen: end - 30_000,
        count: 3,
      },
    ],
    window: { start: end - 60_000, end },
    dashboardUrl: 'https://app.cspwatch.example/alerts/sample',
  };
}

/**
 * Builds the alert (throws the sender's `invalid_alert` listing each bad field) and delivers
 * it once to `to`, signed with `secret` (throws `invalid_channel` for a short secret).
 */
export async function triggerAlert(
  to: string,
  secret: string,
  input: BuildAlertInput,
  timeoutMs = 10_000,
): Promise<TriggerResult> {
  const alert = buildAlert(input);
  const sender = createWebhookSender({ dangerouslyAllowLoopback: true, timeoutMs });
  try {
    const result = await sender.deliver({ id: 'trigger', url: to, secret }, alert);
    return { alert, result };
  } finally {
    await sender.close();
  }
}
