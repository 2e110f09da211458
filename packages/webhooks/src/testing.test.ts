import { describe, expect, it } from 'vitest';
import { verifyWebhook } from './crypto/web';
import { createSampleAlert, createSignedDelivery } from './testing';

describe('createSampleAlert', () => {
  it('builds the Test action alert: one fake violation, fresh UUID, window ending now', () => {
    const before = Date.now();
    const alert = createSampleAlert();
    expect(alert.eventType).toBe('csp-violation:new-type');
    expect(alert.id).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );
    expect(createSampleAlert().id).not.toBe(alert.id);
    expect(alert.findings).toHaveLength(1);
    expect(alert.findingsCount).toBe(1);
    const [finding] = alert.findings;
    expect(finding?.kind).toBe('csp-violation:new-type');
    expect(finding?.key).toBe(`${finding?.effectiveDirective}\n${finding?.blockedUrlOrigin}`);
    const end = Date.parse(alert.window.end);
    expect(end).toBeGreaterThanOrEqual(before);
    expect(end - Date.parse(alert.window.start)).toBe(300_000);
    expect(alert.window.end).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(alert.dashboardUrl).toContain(alert.id);
  });

  it('applies overrides and keeps findingsCount in step with findings', () => {
    const alert = createSampleAlert({ rule: 'Mine', findings: [] });
    expect(alert.rule).toBe('Mine');
    expect(alert.findingsCount).toBe(0);
  });
});

describe('createSignedDelivery', () => {
  it('gives a body and headers that verify with the same secret', async () => {
    const { body, headers } = await createSignedDelivery({ secret: 'testing-secret' });
    expect(await verifyWebhook({ body, headers, secret: 'testing-secret' })).toEqual(
      JSON.parse(body),
    );
  });

  it('sends a string payload byte for byte and signs the given timestamp', async () => {
    const payload = '{"eventType":"x:y",  "findings":[]}';
    const { body, headers } = await createSignedDelivery({
      secret: 'testing-secret',
      payload,
      timestamp: 42,
    });
    expect(body).toBe(payload);
    expect(headers['x-cspwatch-timestamp']).toBe('42');
    await expect(verifyWebhook({ body, headers, secret: 'testing-secret' })).rejects.toMatchObject({
      code: 'timestamp_too_old',
    });
  });
});
