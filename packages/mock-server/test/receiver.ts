import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type CspwatchEvent, safeVerifyWebhook } from '@cspwatch/webhooks';

/** One delivery a {@link startVerifyingReceiver} got, with `@cspwatch/webhooks`' verdict. */
export interface ReceivedDelivery {
  headers: Record<string, string | string[] | undefined>;
  body: string;
  verified: boolean;
  event: CspwatchEvent | undefined;
  errorCode: string | undefined;
}

/**
 * A customer's webhook endpoint: a plain node:http server on 127.0.0.1:0 that verifies each
 * delivery with `@cspwatch/webhooks` and answers `status()` (200 by default).
 */
export async function startVerifyingReceiver(secret: string) {
  const deliveries: ReceivedDelivery[] = [];
  let answer: { status: number; headers?: Record<string, string> } = { status: 200 };
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    const verdict = await safeVerifyWebhook({ body, headers: req.headers, secret });
    deliveries.push({
      headers: req.headers,
      body: body.toString('utf8'),
      verified: verdict.ok,
      event: verdict.ok ? verdict.event : undefined,
      errorCode: verdict.ok ? undefined : verdict.error.code,
    });
    res.writeHead(verdict.ok ? answer.status : 401, answer.headers).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/webhooks`,
    deliveries,
    /** Sets the answer to verified deliveries from now on. */
    answerWith(status: number, headers?: Record<string, string>) {
      answer = { status, ...(headers ? { headers } : {}) };
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
