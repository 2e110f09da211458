import { describe, expect, it } from 'vitest';
import { isWebhookSenderError, type WebhookSenderError } from '../errors';
import { type BuildAlertInput, buildAlert } from './alerts';

const input: BuildAlertInput = {
  rule: 'New violation types',
  website: { id: 'ws_1', name: 'Shop', url: 'https://shop.example.com' },
  findings: [
    {
      effectiveDirective: 'script-src-elem',
      blockedUrlOrigin: 'https://cdn.example.net',
      firstSeen: '2025-03-01T10:01:00+01:00',
      count: 3,
    },
    {
      effectiveDirective: 'script-src-elem',
      blockedUrlOrigin: 'inline',
      firstSeen: new Date('2025-03-01T09:02:30Z'),
      count: 1,
    },
  ],
  window: { start: Date.UTC(2025, 2, 1, 9, 0), end: '2025-03-01T09:05:00Z' },
  dashboardUrl: 'https://app.cspwatch.example/ws_1/alerts',
};

function issuesOf(bad: unknown): string[] {
  try {
    buildAlert(bad as BuildAlertInput);
  } catch (error) {
    expect(isWebhookSenderError(error) && error.code).toBe('invalid_alert');
    return (error as WebhookSenderError).issues.map((issue) => `${issue.path}:${issue.code}`);
  }
  throw new Error('expected invalid_alert');
}

describe('buildAlert', () => {
  it('fills id, kind, key, findingsCount and ISO UTC dates with milliseconds', () => {
    const alert = buildAlert(input);
    expect(alert.id).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );
    expect(alert).toMatchObject({
      eventType: 'csp-violation:new-type',
      rule: 'New violation types',
      findingsCount: 2,
      window: { start: '2025-03-01T09:00:00.000Z', end: '2025-03-01T09:05:00.000Z' },
    });
    expect(alert.findings[0]).toEqual({
      kind: 'csp-violation:new-type',
      key: 'script-src-elem\nhttps://cdn.example.net',
      effectiveDirective: 'script-src-elem',
      blockedUrlOrigin: 'https://cdn.example.net',
      firstSeen: '2025-03-01T09:01:00.000Z',
      count: 3,
    });
    expect(alert.findings[1]?.key).toBe('script-src-elem\ninline');
    expect(Object.keys(alert)).toEqual([
      'id',
      'eventType',
      'rule',
      'website',
      'findings',
      'findingsCount',
      'window',
      'dashboardUrl',
    ]);
  });

  it('keeps a given UUID and gives a fresh one otherwise', () => {
    expect(buildAlert({ ...input, id: 'AAAAAAAA-BBBB-4CCC-8DDD-EEEEEEEEEEEE' }).id).toBe(
      'aaaaaaaa-bbbb-4ccc-8ddd-eeeeeeeeeeee',
    );
    expect(buildAlert(input).id).not.toBe(buildAlert(input).id);
  });

  it.each([
    [{ ...input, findings: [] }, 'findings:findings_empty'],
    [
      { ...input, window: { start: '2025-03-01T09:06:00Z', end: '2025-03-01T09:05:00Z' } },
      'window:window_reversed',
    ],
    [
      { ...input, window: { start: 'yesterday', end: input.window.end } },
      'window.start:invalid_date',
    ],
    [
      { ...input, window: { start: '2025-03-01T09:00:00', end: input.window.end } },
      'window.start:invalid_date',
    ],
    [
      { ...input, findings: [input.findings[0], input.findings[0]] },
      'findings.1:duplicate_finding',
    ],
    [
      { ...input, findings: [{ ...input.findings[0], firstSeen: '2025-03-01T09:05:00.001Z' }] },
      'findings.0.firstSeen:after_window',
    ],
    [
      { ...input, findings: [{ ...input.findings[0], count: 0 }] },
      'findings.0.count:invalid_count',
    ],
    [
      { ...input, findings: [{ ...input.findings[0], count: 1.5 }] },
      'findings.0.count:invalid_count',
    ],
    [
      {
        ...input,
        findings: [{ ...input.findings[0], blockedUrlOrigin: 'https://cdn.example.net/app.js' }],
      },
      'findings.0.blockedUrlOrigin:invalid_origin',
    ],
    [
      { ...input, findings: [{ ...input.findings[0], effectiveDirective: 'Script Src' }] },
      'findings.0.effectiveDirective:invalid_directive',
    ],
    [{ ...input, id: 'not-a-uuid' }, 'id:invalid_id'],
    [{ ...input, rule: '' }, 'rule:required'],
    [
      { ...input, website: { ...input.website, url: 'javascript:alert(1)' } },
      'website.url:invalid_url',
    ],
    [{ ...input, website: undefined }, 'website.id:required'],
    [{ ...input, dashboardUrl: '/relative' }, 'dashboardUrl:invalid_url'],
  ])('refuses inconsistent input (%#)', (bad, expected) => {
    expect(issuesOf(bad)).toContain(expected);
  });

  it('refuses a non-object', () => {
    expect(issuesOf(null)).toEqual(['(input):not_an_object']);
  });
});
