import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { AlertSchema } from '@cspwatch/contract';
import { buildAlert } from '@cspwatch/webhook-sender';
import { createSampleAlert } from '@cspwatch/webhooks/testing';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '../../..');
const read = (path: string) => JSON.parse(readFileSync(join(root, path), 'utf8'));

// The shipped file, checked by a third-party validator rather than by the zod schema it came from.
const ajv = new Ajv2020({ strict: true, allErrors: true });
addFormats.default(ajv);
const validateAlert = ajv.compile(read('packages/webhooks/alert.schema.json'));
const errorsOf = (payload: unknown) => (validateAlert(payload) ? [] : (validateAlert.errors ?? []));

const input = {
  rule: 'New violation types',
  website: { id: 'ws_1', name: 'Shop', url: 'https://shop.example.com' },
  findings: [
    {
      effectiveDirective: 'script-src-elem',
      blockedUrlOrigin: 'https://cdn.example.net',
      firstSeen: '2026-01-01T10:01:00Z',
      count: 3,
    },
    {
      effectiveDirective: 'style-src',
      blockedUrlOrigin: 'inline',
      firstSeen: 1767261700000,
      count: 1,
    },
  ],
  window: { start: '2026-01-01T10:00:00.000Z', end: '2026-01-01T10:05:00.000Z' },
  dashboardUrl: 'https://app.cspwatch.example/ws_1/alerts',
};

describe('alert.schema.json', () => {
  it('accepts the sample alert of the Test action, with and without overrides', () => {
    expect(errorsOf(createSampleAlert())).toEqual([]);
    expect(errorsOf(createSampleAlert({ rule: 'Mine' }))).toEqual([]);
  });

  it("accepts the reference sender's buildAlert output", () => {
    expect(errorsOf(buildAlert(input))).toEqual([]);
    expect(errorsOf(buildAlert({ ...input, id: 'AAAAAAAA-BBBB-4CCC-8DDD-EEEEEEEEEEEE' }))).toEqual(
      [],
    );
  });

  it('accepts buildAlert output for any valid findings (property)', () => {
    const finding = fc.record({
      effectiveDirective: fc.constantFrom('script-src-elem', 'img-src', 'connect-src'),
      blockedUrlOrigin: fc.constantFrom(
        'https://a.example',
        'inline',
        'eval',
        'http://b.example:8080',
      ),
      firstSeen: fc.integer({ min: 1767261600000, max: 1767261900000 }),
      count: fc.integer({ min: 1, max: 1_000_000 }),
    });
    const findings = fc.uniqueArray(finding, {
      minLength: 1,
      maxLength: 5,
      selector: (f) => `${f.effectiveDirective}\n${f.blockedUrlOrigin}`,
    });
    fc.assert(
      fc.property(findings, (list) => {
        expect(errorsOf(buildAlert({ ...input, findings: list }))).toEqual([]);
      }),
      { numRuns: 100 },
    );
  });

  it('accepts every complete alert among the verifier vectors and refuses the partial ones', () => {
    const { vectors } = read('packages/webhooks/test/vectors.json') as {
      vectors: { name: string; body: string }[];
    };
    const bodies = vectors.map((vector) => ({
      name: vector.name,
      payload: JSON.parse(vector.body),
    }));
    // Most vectors are signature fixtures with a minimal body; the complete alerts must pass.
    const complete = bodies.filter(({ payload }) => AlertSchema.safeParse(payload).success);
    expect(complete.length).toBeGreaterThan(0);
    for (const { name, payload } of bodies) {
      const isComplete = complete.some((body) => body.name === name);
      expect(errorsOf(payload).length === 0, name).toBe(isComplete);
    }
  });

  it('refuses what breaks the payload: missing fields, wrong kinds, bad dates, extra fields', () => {
    const alert = buildAlert(input);
    const broken: unknown[] = [
      { ...alert, id: 'not-a-uuid' },
      { ...alert, eventType: 'csp-violation:other' },
      { ...alert, findings: [] },
      { ...alert, findingsCount: 1.5 },
      { ...alert, window: { start: '2026-01-01T10:00:00Z', end: alert.window.end } },
      { ...alert, findings: [{ ...alert.findings[0], kind: 'other' }] },
      { ...alert, findings: [{ ...alert.findings[0], count: 0 }] },
      { ...alert, website: { id: 'ws_1', name: 'Shop' } },
      { ...alert, surprise: true },
    ];
    for (const payload of broken) {
      expect(errorsOf(payload), JSON.stringify(payload)).not.toEqual([]);
      expect(AlertSchema.safeParse(payload).success).toBe(false);
    }
  });
});
