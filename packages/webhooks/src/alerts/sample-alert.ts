import type { CspViolationNewTypeEvent } from './payloads';

/** Fields of the sample alert to replace; `findings` keeps `findingsCount` in step. */
export type SampleAlertOverrides = Partial<CspViolationNewTypeEvent>;

const WINDOW_MS = 5 * 60_000;

/**
 * A random UUID v4. Node 18 has no global `crypto` (without a flag), so there the sample
 * id falls back to `Math.random`: fine for a sample alert, which carries no secret.
 */
function randomUuid(): string {
  const webCrypto = (globalThis as { crypto?: { randomUUID?: () => string } }).crypto;
  if (typeof webCrypto?.randomUUID === 'function') return webCrypto.randomUUID();
  return 'xxxxxxxx-xxxx-4xxx-yxxx-xxxxxxxxxxxx'.replace(/[xy]/g, (char) => {
    const nibble = Math.floor(Math.random() * 16);
    return (char === 'x' ? nibble : (nibble & 3) | 8).toString(16);
  });
}

/**
 * Builds the sample alert the Test action sends: one fake `csp-violation:new-type`
 * finding, a fresh UUID, a five-minute window ending now, and a dashboard link. The one
 * builder of it: the sender's Test action and `@cspwatch/webhooks/testing` both use it.
 *
 * @example
 * ```ts
 * const alert = createSampleAlert({ rule: 'My rule' });
 * ```
 */
export function createSampleAlert(overrides: SampleAlertOverrides = {}): CspViolationNewTypeEvent {
  const end = Date.now();
  const start = end - WINDOW_MS;
  const id = randomUuid();
  const effectiveDirective = 'script-src-elem';
  const blockedUrlOrigin = 'https://cdn.example.net';
  const findings = overrides.findings ?? [
    {
      kind: 'csp-violation:new-type' as const,
      key: `${effectiveDirective}\n${blockedUrlOrigin}`,
      effectiveDirective,
      blockedUrlOrigin,
      firstSeen: new Date(start + 60_000).toISOString(),
      count: 1,
    },
  ];
  return {
    id,
    eventType: 'csp-violation:new-type',
    rule: 'Test alert',
    website: { id: 'ws_sample', name: 'Example website', url: 'https://www.example.com' },
    findingsCount: findings.length,
    window: { start: new Date(start).toISOString(), end: new Date(end).toISOString() },
    dashboardUrl: `https://app.cspwatch.example/alerts/${id}`,
    ...overrides,
    findings,
  };
}
