import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { EdgeVM } from '@edge-runtime/vm';
import { describe, expect, it } from 'vitest';
import vectorsFile from './vectors.json';

/**
 * Runs the built Web entries inside @edge-runtime/vm (the Vercel Edge runtime's sandbox:
 * Web APIs only, no `require`, no `process`, no Node built-ins). Any `node:` import left in
 * these bundles would throw `require is not defined` here.
 */
const dist = fileURLToPath(new URL('../dist/', import.meta.url));
const webEntries = ['index.cjs', 'testing.cjs', 'fetch.cjs', 'next.cjs'];
const built = webEntries.every((file) => existsSync(dist + file));

function loadInEdge(vm: EdgeVM, file: string, globalName: string): void {
  const code = readFileSync(dist + file, 'utf8');
  vm.evaluate(
    `globalThis.${globalName} = (function () { const module = { exports: {} }; const exports = module.exports;\n${code}\n;return module.exports; })();`,
  );
}

describe.skipIf(!built)('Web entries inside the Edge runtime sandbox', () => {
  it('has no Node globals to lean on', () => {
    const vm = new EdgeVM();
    expect(vm.evaluate('typeof require + typeof process + typeof Buffer')).toBe(
      'undefinedundefinedundefined',
    );
  });

  it('proves the check works: a bundle that requires node:crypto fails to load', () => {
    const vm = new EdgeVM();
    expect(() => vm.evaluate(`(function () { require('node:crypto'); })()`)).toThrow(
      /require is not defined/,
    );
  });

  it.each(webEntries)('loads dist/%s without Node built-ins', (file) => {
    const vm = new EdgeVM();
    expect(() => loadInEdge(vm, file, 'entry')).not.toThrow();
  });

  it('signs and verifies the known-answer vectors with Web Crypto in the sandbox', async () => {
    const vm = new EdgeVM();
    loadInEdge(vm, 'index.cjs', 'webhooks');
    vm.context.vectors = JSON.parse(JSON.stringify(vectorsFile.vectors));
    const results = await vm.evaluate(`(async () => {
      const out = [];
      for (const v of vectors) {
        const headers = { 'x-cspwatch-timestamp': v.timestamp, 'x-cspwatch-signature': v.signature };
        const now = () => Number(v.timestamp);
        const event = await webhooks.verifyWebhook({ body: v.body, headers, secret: v.secret, now });
        const bytes = new TextEncoder().encode(v.body);
        const fromBytes = await webhooks.verifyWebhook({ body: bytes, headers: new Headers(headers), secret: v.secret, now });
        const signed = await webhooks.signWebhook({ body: v.body, secret: v.secret, timestamp: Number(v.timestamp) });
        let code = 'accepted';
        try { await webhooks.verifyWebhook({ body: v.body + ' ', headers, secret: v.secret, now }); }
        catch (error) { code = error.code; }
        out.push(JSON.stringify({ event, fromBytes, signature: signed['x-cspwatch-signature'], code }));
      }
      return out;
    })()`);
    (results as string[]).forEach((json, index) => {
      const vector = vectorsFile.vectors[index]!;
      const result = JSON.parse(json) as {
        event: unknown;
        fromBytes: unknown;
        signature: string;
        code: string;
      };
      expect(result.event).toEqual(JSON.parse(vector.body));
      expect(result.fromBytes).toEqual(result.event);
      expect(result.code).toBe('signature_mismatch');
      if (vector.timestamp === String(Number(vector.timestamp)))
        expect(result.signature).toBe(vector.signature);
    });
  });

  it('verifies a real Request with the fetch adapter in the sandbox', async () => {
    const vm = new EdgeVM();
    loadInEdge(vm, 'testing.cjs', 'testing');
    loadInEdge(vm, 'fetch.cjs', 'adapter');
    const result = await vm.evaluate(`(async () => {
      const secret = 'edge-secret-value';
      const { body, headers } = await testing.createSignedDelivery({ secret });
      const request = new Request('https://example.com/hook', { method: 'POST', headers, body });
      const event = await adapter.verifyRequest(request, { secret });
      const forged = new Request('https://example.com/hook', { method: 'POST', headers, body: body + ' ' });
      let code = 'accepted';
      try { await adapter.verifyRequest(forged, { secret }); } catch (error) { code = error.code; }
      return JSON.stringify({ eventType: event.eventType, code });
    })()`);
    expect(JSON.parse(result as string)).toEqual({
      eventType: 'csp-violation:new-type',
      code: 'signature_mismatch',
    });
  });
});

describe.skipIf(built)('Web entries inside the Edge runtime sandbox', () => {
  it('is skipped: dist/ is missing; run `pnpm --filter @cspwatch/webhooks build` first', () => {});
});
