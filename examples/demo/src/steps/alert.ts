import { buildAlert } from '@cspwatch/webhook-sender';
import type { CspViolationNewTypeEvent } from '@cspwatch/webhooks';

/** A realistic alert for the website the demo created, built with the sender's alert builder. */
export function demoAlert(website: { id: string; url: string }): CspViolationNewTypeEvent {
  const end = Date.now();
  return buildAlert({
    rule: 'New violation types',
    website: { id: website.id, name: 'Demo shop', url: website.url },
    findings: [
      {
        effectiveDirective: 'script-src-elem',
        blockedUrlOrigin: 'https://cdn.tracker.example',
        firstSeen: end - 90_000,
        count: 12,
      },
      {
        effectiveDirective: 'img-src',
        blockedUrlOrigin: 'https://pixel.ads.example',
        firstSeen: end - 30_000,
        count: 3,
      },
    ],
    window: { start: end - 5 * 60_000, end },
    dashboardUrl: `https://app.cspwatch.example/websites/${website.id}/alerts`,
  });
}
