import type { CspViolationNewTypeEvent } from '@cspwatch/webhooks';
import { afterEach, describe, expect, it } from 'vitest';
import { startVerifyingReceiver } from '../receiver';
import type { SuiteContext } from './context';

type Receiver = Awaited<ReturnType<typeof startVerifyingReceiver>>;

const report = (directive: string, blockedURL: string, age = 0) => ({
  type: 'csp-violation',
  age,
  url: 'https://shop.example.com/checkout',
  user_agent: 'Mozilla/5.0',
  body: {
    documentURL: 'https://shop.example.com/checkout',
    effectiveDirective: directive,
    blockedURL,
    disposition: 'enforce',
    statusCode: 200,
  },
});

/** The service's alert flow: report → new violation type → signed delivery to each channel of the website's rules. */
export function alertFlowTests(s: SuiteContext): void {
  const { control, expectProblem } = s;
  const secret = 'whsec-alert-flow-1';
  const receivers: Receiver[] = [];
  afterEach(async () => {
    await s.harness.service.idle();
    for (const receiver of receivers.splice(0)) await receiver.close();
  });

  async function setUp(channelCount = 1, siteName?: string) {
    const site = await s.website(siteName);
    const channels = [];
    for (let index = 0; index < channelCount; index++) {
      const receiver = await startVerifyingReceiver(secret);
      receivers.push(receiver);
      const response = await control('POST', '/webhook-channels', {
        name: `Ops ${index}`,
        url: receiver.url,
        secret,
      });
      expect(response.status).toBe(201);
      channels.push({ receiver, view: await response.json() });
    }
    const rule = await control('POST', '/alert-rules', {
      name: 'New violation types',
      websiteId: site.id,
      channelIds: channels.map((channel) => channel.view.id),
    });
    expect(rule.status).toBe(201);
    const send = (body: unknown, type = 'application/reports+json') =>
      fetch(site.endpointUrl, {
        method: 'POST',
        headers: { 'content-type': type },
        body: JSON.stringify(body),
      });
    const settled = async () => (await (await control('GET', '/alerts?wait=1')).json()).data;
    return { site, channels, send, settled };
  }

  describe('alert flow', () => {
    it('a new directive + origin pair raises one signed csp-violation:new-type alert per enabled channel', async () => {
      // Spaces around the name are part of it: the alert carries the website's name as is.
      const { site, channels, send, settled } = await setUp(3, '  Shop (EU) ');
      expect(site.name).toBe('  Shop (EU) ');
      await control('PATCH', `/webhook-channels/${channels[2]!.view.id}`, { enabled: false });
      const before = Date.now();
      const response = await send([
        report('script-src-elem', 'https://cdn.evil.example/a.js', 5000),
        report('script-src-elem', 'https://cdn.evil.example/b.js', 1000),
        report('img-src', 'inline'),
        { type: 'deprecation', age: 0, url: 'https://shop.example.com/', body: { id: 'x' } },
      ]);
      expect(response.status).toBe(204);
      const [record] = await settled();
      const alert: CspViolationNewTypeEvent = record.alert;
      expect(alert).toMatchObject({
        eventType: 'csp-violation:new-type',
        rule: 'New violation types',
        website: { id: site.id, name: site.name, url: site.url },
        findingsCount: 2,
        dashboardUrl: expect.stringMatching(/^https?:\/\//),
      });
      expect(alert.findings).toEqual([
        expect.objectContaining({
          kind: 'csp-violation:new-type',
          key: 'script-src-elem\nhttps://cdn.evil.example',
          blockedUrlOrigin: 'https://cdn.evil.example',
          count: 2,
        }),
        expect.objectContaining({ key: 'img-src\ninline', count: 1 }),
      ]);
      expect(Date.parse(alert.findings[0]!.firstSeen)).toBeLessThanOrEqual(before - 4000);
      expect(Date.parse(alert.window.start)).toBeLessThanOrEqual(Date.parse(alert.window.end));
      // Spec 2.4: ISO 8601 UTC date-time with milliseconds.
      for (const edge of [alert.window.start, alert.window.end]) {
        expect(edge).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
      }
      for (const { receiver } of channels.slice(0, 2)) {
        expect(receiver.deliveries).toHaveLength(1);
        expect(receiver.deliveries[0]).toMatchObject({ verified: true, event: alert });
      }
      expect(channels[2]!.receiver.deliveries).toEqual([]);
      expect(
        record.deliveries.map((d: { ok: boolean; cause: string | null }) => [d.ok, d.cause]),
      ).toEqual([
        [true, null],
        [true, null],
        [false, 'channel_disabled'],
      ]);
    });

    it('one POST per alert per channel, even when a rule names the channel twice (spec 6)', async () => {
      const { site, channels, send, settled } = await setUp();
      const { receiver, view } = channels[0]!;
      const twice = await control('POST', '/alert-rules', {
        name: 'Twice',
        websiteId: site.id,
        channelIds: [view.id, view.id],
      });
      expect(twice.status).toBe(201);
      await send([report('script-src', 'https://once.example/x.js')]);
      const log = await settled();
      // Two rules raise two alerts; each reaches the channel once.
      expect(log).toHaveLength(2);
      for (const record of log) expect(record.deliveries).toHaveLength(1);
      const ids = receiver.deliveries.map((delivery) => delivery.event?.id);
      expect(ids).toHaveLength(2);
      expect(new Set(ids).size).toBe(2);
    });

    it('a pair seen before raises nothing; a new one (legacy application/csp-report too) raises an alert with only it', async () => {
      const { channels, send, settled } = await setUp();
      await send([report('script-src-elem', 'https://cdn.evil.example/a.js')]);
      await send([report('script-src-elem', 'https://cdn.evil.example/other.js')]);
      expect(await settled()).toHaveLength(1);
      const legacy = {
        'csp-report': {
          'document-uri': 'https://shop.example.com/',
          'violated-directive': 'connect-src https://api.example.com',
          'blocked-uri': 'https://tracker.example/beacon',
        },
      };
      expect((await send(legacy, 'application/csp-report')).status).toBe(204);
      const [latest] = await settled();
      expect(latest.alert.findings.map((f: { key: string }) => f.key)).toEqual([
        'connect-src\nhttps://tracker.example',
      ]);
      expect(channels[0]!.receiver.deliveries.map((d) => d.verified)).toEqual([true, true]);
      // No origin (data:) is accepted but is not a violation type.
      expect((await send([report('img-src', 'data:image/png;base64,AAAA')])).status).toBe(204);
      expect(await settled()).toHaveLength(2);
    });

    it('five failed deliveries disable the channel; redirects are not followed; PATCH enabled:true re-enables', async () => {
      const { channels, send, settled } = await setUp();
      const { receiver, view } = channels[0]!;
      const sendSettled = async (origin: string) => {
        await send([report('script-src', `${origin}/x.js`)]);
        return settled();
      };
      receiver.answerWith(500);
      for (let index = 0; index < 4; index++) await sendSettled(`https://a${index}.example`);
      receiver.answerWith(302, { location: 'https://elsewhere.example/' });
      await sendSettled('https://a4.example');
      const log = await sendSettled('https://a5.example');
      expect(log.map((r: { deliveries: { cause: string }[] }) => r.deliveries[0]?.cause)).toEqual([
        'channel_disabled',
        'redirect',
        'http_status',
        'http_status',
        'http_status',
        'http_status',
      ]);
      expect(log[1].deliveries[0]).toMatchObject({
        disabledNow: true,
        status: 302,
        location: 'https://elsewhere.example/',
      });
      expect(receiver.deliveries).toHaveLength(5);
      const listed = (await (await control('GET', '/webhook-channels')).json()).data[0];
      expect(listed).toMatchObject({ id: view.id, enabled: false, consecutiveFailures: 5 });
      receiver.answerWith(200);
      const enabled = await (
        await control('PATCH', `/webhook-channels/${view.id}`, { enabled: true })
      ).json();
      expect(enabled).toMatchObject({ enabled: true, consecutiveFailures: 0 });
      expect((await sendSettled('https://a6.example'))[0].deliveries[0].ok).toBe(true);
    });

    it('malformed reports get 400 with what is wrong; an unknown endpoint 404; another type 415', async () => {
      const { site, send } = await setUp();
      const cases: [unknown, string, string[]][] = [
        [{ not: 'an array' }, 'application/reports+json', ['(body)']],
        [[{ type: 'csp-violation' }], 'application/reports+json', ['0']],
        [
          [report('Script Src', 'https://a.example/')],
          'application/reports+json',
          ['0.body.effectiveDirective'],
        ],
        [
          Array.from({ length: 101 }, () => report('img-src', 'https://a.example/')),
          'application/reports+json',
          ['(body)'],
        ],
        [{ other: 1 }, 'application/csp-report', ['csp-report']],
        [
          { 'csp-report': { 'blocked-uri': 'https://a.example/' } },
          'application/csp-report',
          ['csp-report.effective-directive'],
        ],
      ];
      for (const [body, type, paths] of cases) {
        const problem = await expectProblem(await send(body, type), 400, 'validation_failed');
        expect(problem.errors?.map((error) => error.path)).toEqual(paths);
      }
      const broken = await fetch(site.endpointUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/reports+json' },
        body: '[{',
      });
      await expectProblem(broken, 400, 'malformed_json');
      await expectProblem(await send([], 'text/plain'), 415, 'unsupported_media_type');
      const unknown = await fetch(`${s.harness.baseUrl}/reports/0123456789abcdef01234567`, {
        method: 'POST',
        headers: { 'content-type': 'application/reports+json' },
        body: '[]',
      });
      await expectProblem(unknown, 404, 'endpoint_not_found');
      expect(s.harness.service.alerts).toEqual([]);
    });

    it('the Test action sends one signed sample alert whatever the state, and changes no count or state', async () => {
      const { channels, send, settled } = await setUp();
      const { receiver, view } = channels[0]!;
      const test = () => control('POST', `/webhook-channels/${view.id}/test`);
      // A failing endpoint: the Test outcome goes back to the caller, and is not counted.
      receiver.answerWith(500);
      const failed = await test();
      expect(failed.status).toBe(200);
      expect(await failed.json()).toMatchObject({ ok: false, status: 500, test: true });
      let listed = (await (await control('GET', '/webhook-channels')).json()).data[0];
      expect(listed).toMatchObject({ enabled: true, consecutiveFailures: 0 });
      // Five real failures disable the channel; a Test still goes out and leaves it disabled.
      for (let index = 0; index < 5; index++) {
        await send([report('script-src', `https://t${index}.example/x.js`)]);
        await settled();
      }
      receiver.answerWith(200);
      const passed = await (await test()).json();
      expect(passed).toMatchObject({ ok: true, status: 200, test: true, disabled: true });
      listed = (await (await control('GET', '/webhook-channels')).json()).data[0];
      expect(listed).toMatchObject({ enabled: false, consecutiveFailures: 5 });
      const sample = receiver.deliveries.at(-1)!;
      expect(sample.verified).toBe(true);
      expect(sample.event).toMatchObject({
        id: passed.alertId,
        eventType: 'csp-violation:new-type',
        findingsCount: 1,
        findings: [{ kind: 'csp-violation:new-type' }],
      });
      // 2 Tests + 5 alert deliveries reached the receiver; nothing was added to the alert log.
      expect(receiver.deliveries).toHaveLength(7);
      expect(await settled()).toHaveLength(5);
      await expectProblem(
        await control('POST', '/webhook-channels/wh_nope/test'),
        404,
        'webhook_channel_not_found',
      );
    });

    it('webhook channels over the control API: no secret in any answer, URL policy, rules need real ids', async () => {
      const receiver = await startVerifyingReceiver(secret);
      receivers.push(receiver);
      const created = await control('POST', '/webhook-channels', {
        name: 'Ops',
        url: receiver.url,
        secret: 'a-long-secret-value-1234',
      });
      const view = await created.json();
      expect(view).toMatchObject({
        type: 'Webhook',
        name: 'Ops',
        url: receiver.url,
        enabled: true,
        consecutiveFailures: 0,
        secretPreview: '********1234',
      });
      const everything = [
        JSON.stringify(view),
        await (await control('GET', '/webhook-channels')).text(),
        await (await control('GET', '/state')).text(),
      ];
      for (const text of everything) expect(text).not.toContain('a-long-secret-value');
      const bad = await expectProblem(
        await control('POST', '/webhook-channels', {
          name: 'Ops',
          url: 'http://hooks.example.com/x',
          secret: 'short',
        }),
        400,
        'validation_failed',
      );
      expect(bad.errors?.map((error) => error.path).sort()).toEqual(['secret', 'url']);
      const renamed = await control('PATCH', `/webhook-channels/${view.id}`, {
        name: 'Ops 2',
        secret: '',
      });
      expect((await renamed.json()).name).toBe('Ops 2');
      const rule = await expectProblem(
        await control('POST', '/alert-rules', {
          name: 'r',
          websiteId: 'web_nope',
          channelIds: [view.id, 'wh_nope'],
        }),
        400,
        'validation_failed',
      );
      expect(rule.errors?.map((error) => error.path)).toEqual(['websiteId', 'channelIds.1']);
      expect((await control('DELETE', `/webhook-channels/${view.id}`)).status).toBe(204);
      await expectProblem(
        await control('DELETE', `/webhook-channels/${view.id}`),
        404,
        'webhook_channel_not_found',
      );
    });

    it('POST /_mock/trigger sends one signed alert to a local handler and answers with the outcome', async () => {
      const receiver = await startVerifyingReceiver(secret);
      receivers.push(receiver);
      const sent = await control('POST', '/trigger', {
        to: receiver.url,
        secret,
        sample: { directive: 'frame-src', origin: 'https://ads.example' },
      });
      expect(sent.status).toBe(200);
      const { alert, result } = await sent.json();
      expect(result).toMatchObject({ ok: true, status: 200 });
      expect(alert.findings[0].key).toBe('frame-src\nhttps://ads.example');
      expect(receiver.deliveries).toEqual([
        expect.objectContaining({ verified: true, event: alert }),
      ]);
      const bad = await expectProblem(
        await control('POST', '/trigger', {
          to: receiver.url,
          secret,
          sample: { origin: 'https://ads.example/path' },
        }),
        400,
        'validation_failed',
      );
      expect(bad.errors?.map((error) => error.path)).toEqual([
        'sample.findings.0.blockedUrlOrigin',
      ]);
      const refused = await (
        await control('POST', '/trigger', { to: 'https://10.1.2.3/hook', secret })
      ).json();
      expect(refused.result).toMatchObject({ ok: false, cause: 'target_rejected' });
      const withQuery = await control('POST', '/trigger', {
        to: `${receiver.url}?key=query-secret-123`,
        secret: 'a-wrong-secret-99',
      });
      expect((await withQuery.json()).result).toMatchObject({ ok: false, status: 401 });
      // External triggers are listed on the inbox page, their URL redacted; Clear forgets them.
      const fragment = await (await control('GET', '/fragment')).text();
      expect(fragment.match(/<tr class="trigger">/g)).toHaveLength(3);
      expect(fragment).toContain(`${receiver.url}?key=`);
      expect(fragment).toContain('failed: target_rejected');
      expect(fragment).toContain('failed: http_status');
      expect(fragment).not.toContain('query-secret-123');
      expect(await (await control('DELETE', '/inbox/deliveries')).json()).toEqual({
        deliveries: 0,
        triggers: 3,
      });
    });
  });
}
