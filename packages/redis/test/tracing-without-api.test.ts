/**
 * Without `@opentelemetry/api` installed (an optional peer), the built queue, worker and
 * sender load, deliver and store jobs as before: no error, no warning, no trace context.
 */
import { execFile } from 'node:child_process';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RedisServerHandle, startRedisServer } from './helpers/redis-server';

const fixture = (name: string) => fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url));
let redis: RedisServerHandle;
const received: IncomingHttpHeaders[] = [];
const receiver = createServer((request, response) => {
  received.push(request.headers);
  request.resume().on('end', () => response.writeHead(204).end());
});

beforeAll(async () => {
  redis = await startRedisServer();
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
});
afterAll(async () => {
  await new Promise((resolve) => receiver.close(resolve));
  await redis?.stop();
});

describe('without @opentelemetry/api installed', () => {
  it('delivers with the built packages, writes no trace context and prints nothing', async () => {
    const { port } = receiver.address() as AddressInfo;
    const { stdout, stderr } = await promisify(execFile)(
      process.execPath,
      [
        '--require',
        fixture('without-opentelemetry.cjs'),
        fixture('deliver-without-opentelemetry.mjs'),
      ],
      {
        cwd: fileURLToPath(new URL('..', import.meta.url)),
        env: { ...process.env, REDIS_URL: redis.url, RECEIVER_URL: `http://127.0.0.1:${port}/` },
      },
    );
    expect(stderr).toBe('');
    const result = JSON.parse(stdout);
    expect(result.apiBlocked).toBe(true);
    expect(result.attempt).toMatchObject({ ok: true, status: 204 });
    expect(result.jobDataKeys).toEqual(['alert', 'channelId', 'priorAttempts', 'schedule']);
    expect(received).toHaveLength(1);
    expect(received[0]?.traceparent).toBeUndefined();
  });
});
