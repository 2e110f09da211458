import { describe, expect, it } from 'vitest';
import { budget } from '../../../test-budget';
import { runDemo } from '../src/demo';
import { shouldUseColor } from '../src/output';

describe('the demo', () => {
  it('runs every step on loopback and reports what it saw', {
    timeout: budget(30_000),
  }, async () => {
    let output = '';
    const summary = await runDemo({ write: (text) => (output += text), color: false });

    expect(summary.ok).toBe(true);
    // Website created, with the header a site owner adds.
    expect(summary.website.endpointUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\//);
    expect(output).toContain(`Reporting-Endpoints: csp-endpoint="${summary.website.endpointUrl}"`);
    expect(output).toContain('report-to csp-endpoint');
    // 60 seeded keys, 20 per page.
    expect(summary.apiKeys).toEqual({ listed: 60, total: 60, pages: 3 });
    expect(output).toContain('60 keys (total 60) fetched in 3 pages');
    // The receiver verified the real alert and refused the forged ones.
    expect(summary.webhooks.valid).toEqual({ status: 204, accepted: true });
    expect(summary.webhooks.tampered).toEqual({
      status: 400,
      accepted: false,
      code: 'signature_mismatch',
    });
    expect(summary.webhooks.stale).toEqual({
      status: 400,
      accepted: false,
      code: 'timestamp_too_old',
    });
    expect(summary.webhooks.receiverLog[0]).toMatch(
      /^alert \S+ csp-violation:new-type "New violation types"/,
    );
    expect(summary.webhooks.receiverLog.slice(1)).toEqual([
      'rejected delivery: signature_mismatch',
      'rejected delivery: timestamp_too_old',
    ]);
    expect(output).toContain(`receiver │ ${summary.webhooks.receiverLog[0]}`);
    // Five failures disable the channel; the sixth delivery sends nothing.
    expect(summary.autoDisable).toEqual({
      failuresUntilDisabled: 5,
      disabled: true,
      skippedWhenDisabled: true,
      requestsReceived: 5,
    });
    expect(output).toContain('delivery 5: HTTP 500 → channel disabled');
    expect(output).toContain('delivery 6: skipped, the channel is disabled');
    // The signature headers are shown, and why a loopback target is allowed here.
    expect(output).toMatch(/x-cspwatch-timestamp: \d{13}\n/);
    expect(output).toMatch(/x-cspwatch-signature: sha256=[0-9a-f]{64}\n/);
    expect(output).toContain('dangerouslyAllowLoopback');
    // Plain output: no escape codes, no secret.
    expect(output).not.toContain('\u001b[');
    expect(output).not.toMatch(/whsec_/);
    expect(summary.durationMs).toBeLessThan(30_000);
  });

  it('colours only a TTY without NO_COLOR', () => {
    expect(shouldUseColor({ isTTY: true }, {})).toBe(true);
    expect(shouldUseColor({ isTTY: true }, { NO_COLOR: '1' })).toBe(false);
    expect(shouldUseColor({ isTTY: true }, { NO_COLOR: '' })).toBe(true);
    expect(shouldUseColor({ isTTY: false }, {})).toBe(false);
    expect(shouldUseColor({}, {})).toBe(false);
  });

  it('writes ANSI colour when asked to', { timeout: budget(30_000) }, async () => {
    let output = '';
    await runDemo({ write: (text) => (output += text), color: true });
    expect(output).toContain('\u001b[32m✔\u001b[0m');
  });
});
