import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import vectorsFile from './vectors.json';

/**
 * The same known-answer vectors against every built output (ESM and CJS, Node and Web
 * entries), so a bundling mistake cannot ship. The root `pnpm test` builds first.
 */
const dist = fileURLToPath(new URL('../dist/', import.meta.url));
const outputs = ['index.js', 'index.cjs', 'node.js', 'node.cjs'];
const built = outputs.every((file) => existsSync(dist + file));
const require = createRequire(import.meta.url);

interface BuiltEntry {
  signWebhook(options: {
    body: string;
    secret: string;
    timestamp: number;
  }): Promise<Record<string, string>>;
  verifyWebhook(options: {
    body: string | Uint8Array;
    headers: Record<string, string>;
    secret: string;
    now: () => number;
  }): Promise<unknown>;
  isWebhookVerificationError(value: unknown): boolean;
}

async function load(file: string): Promise<BuiltEntry> {
  if (file.endsWith('.cjs')) return require(dist + file) as BuiltEntry;
  return (await import(/* @vite-ignore */ pathToFileURL(dist + file).href)) as BuiltEntry;
}

describe.skipIf(!built)('known-answer vectors against dist/', () => {
  describe.each(outputs)('dist/%s', (file) => {
    it.each(vectorsFile.vectors)('verifies and signs "$name"', async (vector) => {
      const entry = await load(file);
      const headers = {
        'x-cspwatch-timestamp': vector.timestamp,
        'x-cspwatch-signature': vector.signature,
      };
      const now = () => Number(vector.timestamp);
      const event = await entry.verifyWebhook({
        body: vector.body,
        headers,
        secret: vector.secret,
        now,
      });
      expect(event).toEqual(JSON.parse(vector.body));
      const bytes = new TextEncoder().encode(vector.body);
      await expect(
        entry.verifyWebhook({ body: bytes, headers, secret: vector.secret, now }),
      ).resolves.toEqual(event);
      const tampered = {
        ...headers,
        'x-cspwatch-signature': vector.signature.replace(/.$/, (c) => (c === '0' ? '1' : '0')),
      };
      const error = await entry
        .verifyWebhook({ body: vector.body, headers: tampered, secret: vector.secret, now })
        .catch((e: unknown) => e);
      expect(entry.isWebhookVerificationError(error)).toBe(true);
      if (vector.timestamp === String(Number(vector.timestamp))) {
        const signed = await entry.signWebhook({
          body: vector.body,
          secret: vector.secret,
          timestamp: Number(vector.timestamp),
        });
        expect(signed['x-cspwatch-signature']).toBe(vector.signature);
      }
    });
  });
});

describe.skipIf(built)('known-answer vectors against dist/', () => {
  it('is skipped: dist/ is missing; run `pnpm --filter @cspwatch/webhooks build` first', () => {});
});
