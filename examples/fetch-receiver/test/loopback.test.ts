import type { AddressInfo } from 'node:net';
import { createSignedDelivery } from '@cspwatch/webhooks/testing';
import { type ServerType, serve } from '@hono/node-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../src/app';

const secret = 'whsec_fetch_receiver_loopback';
let server: ServerType;
let url: string;
const lines: string[] = [];

beforeAll(async () => {
  server = await new Promise<ServerType>((resolve) => {
    const started = serve(
      {
        fetch: createApp({ secret, log: (line) => lines.push(line) }).fetch,
        port: 0,
        hostname: '127.0.0.1',
      },
      () => resolve(started),
    );
  });
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks/cspwatch`;
});
afterAll(
  () =>
    new Promise<void>((resolve, reject) =>
      server.close((error) => (error ? reject(error) : resolve())),
    ),
);

describe('fetch receiver over loopback (@hono/node-server)', () => {
  it('answers 204 to a valid delivery and 400 to a tampered one', async () => {
    const { body, headers } = await createSignedDelivery({ secret });
    const valid = await fetch(url, { method: 'POST', body, headers });
    expect(valid.status).toBe(204);
    const tampered = await fetch(url, { method: 'POST', body: `${body} `, headers });
    expect(tampered.status).toBe(400);
    expect(await tampered.json()).toMatchObject({ status: 400, code: 'signature_mismatch' });
    expect(lines).toHaveLength(2);
    expect(lines[1]).toBe('rejected delivery: signature_mismatch');
  });
});
