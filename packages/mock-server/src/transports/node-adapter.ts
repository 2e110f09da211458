import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { type MockService, newRequestId } from '../core/app';
import { setDisconnectSignal } from '../http/disconnect';
import { problem, problemDetails } from '../http/problem';
import { MAX_BODY_BYTES } from '../http/request-body';
import { unreadBody } from '../http/response-text';

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

/** The raw header list as `[name, value]` pairs, repeated names kept (the service refuses duplicates where it matters). */
function headerPairs(raw: readonly string[]): [string, string][] {
  const pairs: [string, string][] = [];
  for (let index = 0; index < raw.length; index += 2) pairs.push([raw[index]!, raw[index + 1]!]);
  return pairs;
}

/** Writes a `Response` to node: a body the service still holds is written as is, with its length. */
async function writeResponse(response: Response, res: ServerResponse): Promise<void> {
  const head: string[] = [];
  response.headers.forEach((value, name) => {
    head.push(name, value);
  });
  const held = unreadBody(response);
  if (held !== undefined) {
    const length = typeof held === 'string' ? Buffer.byteLength(held) : held.byteLength;
    head.push('content-length', String(length));
    res.writeHead(response.status, head);
    res.end(held);
    return;
  }
  const payload = Buffer.from(await response.arrayBuffer());
  res.writeHead(response.status, head);
  res.end(payload);
}

/**
 * Turns a node request into a fetch `Request`, runs the service and writes its `Response`.
 * A bodiless method's stream is drained without being read (nothing in it is used).
 */
export async function handleNodeRequest(
  service: MockService,
  origin: string,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  let aborter: AbortController | undefined;
  const signal = (): AbortSignal => {
    if (!aborter) {
      aborter = new AbortController();
      if (res.closed) aborter.abort();
      else res.once('close', () => !res.writableFinished && aborter?.abort());
    }
    return aborter.signal;
  };
  let response: Response;
  try {
    const method = req.method ?? 'GET';
    const bodiless = method === 'GET' || method === 'HEAD';
    if (bodiless) req.resume();
    const body = bodiless ? undefined : await readCapped(req);
    const path = req.url?.startsWith('/') ? req.url : '/';
    const request = new Request(origin + path, {
      method,
      headers: headerPairs(req.rawHeaders),
      ...(body === undefined ? {} : { body }),
    });
    setDisconnectSignal(request, signal);
    response = await service.fetch(request);
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
  await writeResponse(response, res);
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
