import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { type MockService, newRequestId } from './app';
import { problem, problemDetails } from './problem';
import { MAX_BODY_BYTES } from './request-body';

/** Reads the body, keeping at most one byte past the limit so the service can answer 413 while the rest is drained. */
async function readCapped(req: IncomingMessage): Promise<Uint8Array<ArrayBuffer>> {
  const chunks: Buffer[] = [];
  let kept = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    if (kept > MAX_BODY_BYTES) continue;
    chunks.push(chunk);
    kept += chunk.length;
  }
  const joined = Buffer.concat(chunks);
  return new Uint8Array(
    joined.buffer,
    joined.byteOffset,
    joined.byteLength,
  ) as Uint8Array<ArrayBuffer>;
}

/** Turns a node request into a fetch `Request`, runs the service and writes its `Response`. */
export async function handleNodeRequest(
  service: MockService,
  origin: string,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const aborter = new AbortController();
  res.on('close', () => {
    if (!res.writableFinished) aborter.abort();
  });
  let response: Response;
  try {
    const headers = new Headers();
    for (let index = 0; index < req.rawHeaders.length; index += 2) {
      headers.append(req.rawHeaders[index]!, req.rawHeaders[index + 1]!);
    }
    const method = req.method ?? 'GET';
    const body = await readCapped(req);
    const path = req.url?.startsWith('/') ? req.url : '/';
    response = await service.fetch(
      new Request(origin + path, {
        method,
        headers,
        signal: aborter.signal,
        ...(method === 'GET' || method === 'HEAD' ? {} : { body }),
      }),
    );
  } catch {
    response = problem({
      status: 400,
      code: 'bad_request',
      detail: 'The request could not be read.',
    });
    response.headers.set('x-request-id', newRequestId());
  }
  if (res.destroyed) return;
  if (response.type === 'error') {
    req.socket.destroy();
    return;
  }
  const payload = Buffer.from(await response.arrayBuffer());
  res.writeHead(response.status, [...response.headers.entries()].flat());
  res.end(payload);
}

/**
 * Answers a request node:http could not parse (the server's `clientError` event) as
 * problem+json with an `x-request-id`, instead of node's bare `400`, then closes the socket.
 */
export function answerClientError(error: NodeJS.ErrnoException, socket: Duplex): void {
  if (!socket.writable || error.code === 'ECONNRESET') {
    socket.destroy();
    return;
  }
  const status = error.code === 'HPE_HEADER_OVERFLOW' ? 431 : 400;
  const body = JSON.stringify(
    problemDetails({
      status,
      code: 'bad_request',
      detail:
        status === 431
          ? 'The request headers are too large.'
          : 'The request is not valid HTTP/1.1; check the request line and headers.',
    }),
  );
  socket.end(
    [
      `HTTP/1.1 ${status} ${status === 431 ? 'Request Header Fields Too Large' : 'Bad Request'}`,
      'content-type: application/problem+json',
      `content-length: ${Buffer.byteLength(body)}`,
      `x-request-id: ${newRequestId()}`,
      'connection: close',
      '',
      body,
    ].join('\r\n'),
  );
}
