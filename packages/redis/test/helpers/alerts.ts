import { buildAlert } from '@cspwatch/webhook-sender';

/** A valid alert with a fresh id. */
export function sampleAlert(rule = 'New violation types') {
  const end = Date.now();
  return buildAlert({
    rule,
    website: { id: 'ws_1', name: 'Shop', url: 'https://shop.example.com' },
    findings: [
      {
        effectiveDirective: 'script-src-elem',
        blockedUrlOrigin: 'https://cdn.example.net',
        firstSeen: end - 30_000,
        count: 3,
      },
    ],
    window: { start: end - 60_000, end },
    dashboardUrl: 'https://app.cspwatch.example/ws_1/alerts',
  });
}
