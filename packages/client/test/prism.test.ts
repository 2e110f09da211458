/**
 * The client against Prism mocking the generated OpenAPI document over loopback, in static
 * (examples) and dynamic (`-d`, random schema-conforming data) modes. Any conforming response
 * the client refuses is a bug in the client or in the document.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { budget } from '../../../test-budget';
import { createCspwatchClient } from '../src/create-client';
import {
  CspwatchApiError,
  CspwatchAuthenticationError,
  CspwatchBadRequestError,
  CspwatchNotFoundError,
  CspwatchPermissionError,
  CspwatchRateLimitError,
  CspwatchServerError,
} from '../src/index';

const require = createRequire(import.meta.url);
const prismPackage = require.resolve('@stoplight/prism-cli/package.json');
const prismBin = join(
  dirname(prismPackage),
  (require(prismPackage) as { bin: { prism: string } }).bin.prism,
);
const documentPath = join(import.meta.dirname, '../openapi.json');

async function freePort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  server.close();
  await once(server, 'close');
  return port;
}

/** Starts `prism mock` on 127.0.0.1 and resolves once it listens (its output is kept for errors). */
async function startPrism(dynamic: boolean): Promise<{ baseUrl: string; child: ChildProcess }> {
  const port = await freePort();
  const args = [
    'mock',
    '-h',
    '127.0.0.1',
    '-p',
    String(port),
    ...(dynamic ? ['-d'] : []),
    documentPath,
  ];
  const child = spawn(process.execPath, [prismBin, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`Prism did not start in 60 s:\n${output}`)),
      60_000,
    );
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('Prism is listening')) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`Prism exited with ${code}:\n${output}`));
    });
  });
  return { baseUrl: `http://127.0.0.1:${port}`, child };
}

const ERRORS: Array<[number, typeof CspwatchApiError, 'list' | 'create' | 'both']> = [
  [400, CspwatchBadRequestError, 'both'],
  [401, CspwatchAuthenticationError, 'both'],
  [403, CspwatchPermissionError, 'both'],
  [404, CspwatchNotFoundError, 'both'],
  [413, CspwatchApiError, 'create'],
  [415, CspwatchApiError, 'create'],
  [429, CspwatchRateLimitError, 'both'],
  [500, CspwatchServerError, 'both'],
  [503, CspwatchServerError, 'both'],
];

describe.each([
  ['static', false],
  ['dynamic', true],
])('the client against Prism (%s mode)', (_mode, dynamic) => {
  let prism: { baseUrl: string; child: ChildProcess } | undefined;
  beforeAll(async () => {
    prism = await startPrism(dynamic);
  }, budget(70_000));
  afterAll(() => {
    prism?.child.kill();
  });
  const client = () =>
    createCspwatchClient({ baseUrl: prism!.baseUrl, token: 'tok_prism', maxRetries: 0 });
  const input = { name: 'Shop', url: 'https://shop.example.com' };

  it('lists API keys: the first page parses', async () => {
    for (let round = 0; round < 5; round++) {
      const page = await client().apiKeys.list('ws_1', { limit: 2, q: 'ci' }).firstPage();
      expect(Array.isArray(page.data)).toBe(true);
      expect(typeof page.pagination.hasMore).toBe('boolean');
    }
  });

  it('creates a website: the 201 body parses', async () => {
    for (let round = 0; round < 5; round++) {
      const website = await client().websites.create('ws_1', {
        ...input,
        settings: { allowedOrigins: ['https://shop.example.com'], dropReferrer: true },
      });
      expect(typeof website.endpointUrl).toBe('string');
    }
  });

  it.each(ERRORS)(
    'maps %i (Prefer: code) to its error class',
    async (status, errorClass, where) => {
      const headers = { prefer: `code=${status}` };
      const calls = [];
      if (where !== 'create') calls.push(client().apiKeys.list('ws_1', { headers }).firstPage());
      if (where !== 'list') calls.push(client().websites.create('ws_1', input, { headers }));
      for (const call of calls) {
        const error = await call.catch((e: unknown) => e);
        expect(error).toBeInstanceOf(errorClass);
        expect((error as CspwatchApiError).status).toBe(status);
      }
    },
  );
});
