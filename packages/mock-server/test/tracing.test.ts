import { SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTracing, type Tracing } from '../../../test/helpers/spans';
import { createMockService, type MockServer, startMockServer } from '../src/index';
import { createMockHandlers } from '../src/msw';

/*
 * Server spans of the mock: one per request on the node server and through msw, continuing
 * an incoming traceparent; nothing without a provider; no token or query value recorded.
 */

let tracing: Tracing;
const CALLER = { traceId: '4bf92f3577b34da6a3ce929d0e0e4736', spanId: '00f067aa0ba902b7' };
const traceparent = `00-${CALLER.traceId}-${CALLER.spanId}-01`;
let server: MockServer;

beforeAll(async () => {
  tracing = startTracing({ propagate: true });
  server = await startMockServer({ seed: 5, apiKeyCount: 3 });
});
afterEach(() => tracing.reset());
afterAll(async () => {
  await server?.close();
  await tracing?.close();
});

const listUrl = (base: string, workspaceId: string) =>
  `${base}/v1/workspaces/${workspaceId}/api-keys?limit=2`;

describe('without a tracer provider', () => {
  it('answers as usual and records nothing', async () => {
    const response = await fetch(listUrl(server.url, server.workspaceIds.main), {
      headers: { authorization: `Bearer ${server.tokens.admin}`, traceparent },
    });
    expect(response.status).toBe(200);
    expect(tracing.spans()).toEqual([]);
  });

  it('refuses a tracerProvider that is not one', () => {
    expect(() => createMockService({ tracerProvider: { getTracer: 1 } as never })).toThrow(
      /tracerProvider: must be an OpenTelemetry TracerProvider/,
    );
  });
});

describe('with a tracer provider', () => {
  beforeAll(() => {
    trace.setGlobalTracerProvider(tracing.provider);
  });

  it('the node server continues the caller’s trace in a SERVER span named by its route', async () => {
    const response = await fetch(listUrl(server.url, server.workspaceIds.main), {
      headers: { authorization: `Bearer ${server.tokens.admin}`, traceparent },
    });
    expect(response.status).toBe(200);
    const [span, ...others] = tracing.spans();
    expect(others).toEqual([]);
    expect(span).toMatchObject({
      name: 'GET /v1/workspaces/{workspaceId}/api-keys',
      kind: SpanKind.SERVER,
      parentSpanContext: { traceId: CALLER.traceId, spanId: CALLER.spanId },
    });
    expect(span!.spanContext().traceId).toBe(CALLER.traceId);
    expect(span!.attributes).toEqual({
      'http.request.method': 'GET',
      'http.route': '/v1/workspaces/{workspaceId}/api-keys',
      'http.response.status_code': 200,
      'server.address': '127.0.0.1',
      'server.port': Number(new URL(server.url).port),
      'url.path': `/v1/workspaces/${server.workspaceIds.main}/api-keys`,
      'url.query': 'limit=[redacted]',
      'url.scheme': 'http',
    });
    expect(span!.status.code).toBe(SpanStatusCode.UNSET);
  });

  it('a 5xx fails the span; an unknown path has no route; the control token stays out', async () => {
    server.service.setFaults({ serverErrorRate: 1 });
    try {
      const failed = await fetch(listUrl(server.url, server.workspaceIds.main));
      expect(failed.status).toBe(503);
    } finally {
      server.service.setFaults({});
    }
    const secret = 'ctl_0123456789abcdef_secret';
    expect((await fetch(`${server.url}/nowhere?token=${secret}`)).status).toBe(404);
    const [fault, unknown] = tracing.spans();
    expect(fault!.status.code).toBe(SpanStatusCode.ERROR);
    expect(fault!.attributes).toMatchObject({
      'http.response.status_code': 503,
      'error.type': '503',
    });
    expect(unknown!.name).toBe('GET');
    expect(unknown!.attributes).not.toHaveProperty('http.route');
    expect(unknown!.attributes['url.query']).toBe('token=[redacted]');
    for (const span of tracing.spans()) {
      expect(JSON.stringify(span.attributes)).not.toContain(secret);
    }
  });

  it('the msw handlers record the same span', async () => {
    const baseUrl = 'https://api.cspwatch.test';
    const service = createMockService({ baseUrl, seed: 5, apiKeyCount: 3 });
    const msw = setupServer(...createMockHandlers({ baseUrl, service }));
    msw.listen({ onUnhandledRequest: 'error' });
    try {
      const response = await fetch(listUrl(baseUrl, service.workspaceIds.main), {
        headers: { authorization: `Bearer ${service.tokens.admin}`, traceparent },
      });
      expect(response.status).toBe(200);
    } finally {
      msw.close();
    }
    const [span] = tracing.spans();
    expect(span).toMatchObject({
      name: 'GET /v1/workspaces/{workspaceId}/api-keys',
      kind: SpanKind.SERVER,
      parentSpanContext: { spanId: CALLER.spanId },
    });
    expect(span!.attributes).toMatchObject({
      'server.address': 'api.cspwatch.test',
      'server.port': 443,
    });
  });
});
