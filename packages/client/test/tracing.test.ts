import { type MockServer, startMockServer } from '@cspwatch/mock-server';
import { SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  type ReadableSpan,
  spanTexts,
  startTracing,
  type Tracing,
} from '../../../test/helpers/spans';
import {
  CspwatchNotFoundError,
  type CspwatchRequestLogEntry,
  createCspwatchClient,
} from '../src/index';

/*
 * Traces: the client against the real mock node server, both traced through the OpenTelemetry
 * SDK's in-memory exporter. The API-call span, its attempt spans and the mock's server spans
 * form one tree in one trace, and no token shows in any span.
 */

let tracing: Tracing;
let server: MockServer;

beforeAll(async () => {
  tracing = startTracing({ propagate: true });
  server = await startMockServer({ seed: 11, apiKeyCount: 25 });
});
afterEach(() => tracing.reset());
afterAll(async () => {
  await server?.close();
  await tracing?.close();
});

const LIST_ROUTE = '/v1/workspaces/{workspaceId}/api-keys';
const idOf = (span: ReadableSpan) => span.spanContext().spanId;
const childrenOf = (spans: ReadableSpan[], parent: ReadableSpan) =>
  spans.filter((span) => span.parentSpanContext?.spanId === idOf(parent));
const byScope = (spans: ReadableSpan[], name: string) =>
  spans.filter((span) => span.instrumentationScope.name === name);

describe('with no tracer provider registered', () => {
  it('lists as usual, sends no traceparent and records no span', async () => {
    const headers: Record<string, string>[] = [];
    const logger = (entry: CspwatchRequestLogEntry) => headers.push(entry.requestHeaders);
    const client = createCspwatchClient({
      baseUrl: server.url,
      token: server.tokens.admin,
      logger,
    });
    const keys = await client.apiKeys.list(server.workspaceIds.main, { limit: 10 }).toArray();
    expect(keys).toHaveLength(25);
    expect(headers).toHaveLength(3);
    for (const sent of headers) expect(sent).not.toHaveProperty('traceparent');
    expect(tracing.spans()).toEqual([]);
  });

  it('records into a tracerProvider given as an option', async () => {
    const client = createCspwatchClient({
      baseUrl: server.url,
      token: server.tokens.admin,
      tracerProvider: tracing.provider,
    });
    await client.apiKeys.list(server.workspaceIds.main, { limit: 30 }).firstPage();
    const spans = tracing.spans();
    // The mock has no provider of its own: only the client's two spans.
    expect(spans.map((span) => span.name).sort()).toEqual([
      `GET ${LIST_ROUTE}`,
      'cspwatch listApiKeys',
    ]);
  });

  it('refuses a tracerProvider that is not one', () => {
    expect(() =>
      createCspwatchClient({
        baseUrl: server.url,
        token: server.tokens.admin,
        tracerProvider: {} as never,
      }),
    ).toThrow(/tracerProvider: must be an OpenTelemetry TracerProvider/);
  });
});

describe('with a tracer provider registered', () => {
  beforeAll(() => {
    trace.setGlobalTracerProvider(tracing.provider);
  });
  afterEach(() => server.service.setFaults({}));

  const client = () => createCspwatchClient({ baseUrl: server.url, token: server.tokens.admin });

  it('a 3-page walk: one API-call span per page, each with an attempt and the mock’s answer', async () => {
    const tracer = trace.getTracer('test');
    const keys = await tracer.startActiveSpan('walk', async (walk) => {
      try {
        return await client().apiKeys.list(server.workspaceIds.main, { limit: 10 }).toArray();
      } finally {
        walk.end();
      }
    });
    expect(keys).toHaveLength(25);
    const spans = tracing.spans();
    const [walk] = spans.filter((span) => span.name === 'walk');
    const calls = childrenOf(spans, walk!);
    expect(calls).toHaveLength(3);
    const { port } = new URL(server.url);
    for (const call of calls) {
      expect(call).toMatchObject({ name: 'cspwatch listApiKeys', kind: SpanKind.INTERNAL });
      expect(call.status.code).toBe(SpanStatusCode.UNSET);
      expect(call.instrumentationScope).toMatchObject({ name: '@cspwatch/client' });
      expect(call.instrumentationScope.version).toMatch(/^\d+\.\d+\.\d+/);
      const [attempt, ...more] = childrenOf(spans, call);
      expect(more).toEqual([]);
      expect(attempt).toMatchObject({ name: `GET ${LIST_ROUTE}`, kind: SpanKind.CLIENT });
      expect(attempt!.attributes).toMatchObject({
        'http.request.method': 'GET',
        'server.address': '127.0.0.1',
        'server.port': Number(port),
        'http.response.status_code': 200,
        'url.template': LIST_ROUTE,
      });
      expect(attempt!.attributes).not.toHaveProperty('http.request.resend_count');
      expect(attempt!.attributes).not.toHaveProperty('error.type');
      // The URL without query values (a cursor or a search could be anything).
      expect(attempt!.attributes['url.full']).toMatch(
        new RegExp(`^${server.url}/v1/workspaces/[^/?]+/api-keys\\?limit=\\[redacted\\]`),
      );
      const [answer, ...others] = childrenOf(spans, attempt!);
      expect(others).toEqual([]);
      expect(answer).toMatchObject({ name: `GET ${LIST_ROUTE}`, kind: SpanKind.SERVER });
      expect(answer!.instrumentationScope.name).toBe('@cspwatch/mock-server');
      expect(answer!.attributes).toMatchObject({
        'http.request.method': 'GET',
        'http.route': LIST_ROUTE,
        'http.response.status_code': 200,
        'url.path': `/v1/workspaces/${server.workspaceIds.main}/api-keys`,
        'url.scheme': 'http',
      });
      for (const span of [call, attempt!, answer!]) {
        expect(span.spanContext().traceId).toBe(walk!.spanContext().traceId);
      }
    }
    // Later pages carry the cursor, named but not shown.
    const queries = byScope(spans, '@cspwatch/mock-server').map(
      (span) => span.attributes['url.query'],
    );
    expect(queries.sort()).toEqual([
      'limit=[redacted]',
      'limit=[redacted]&cursor=[redacted]',
      'limit=[redacted]&cursor=[redacted]',
    ]);
  });

  it('a retried call: one API-call span, a failed attempt and a resent one', async () => {
    // Every second REST request is refused: a raw request takes the first turn.
    server.service.setFaults({ rateLimitEvery: 2, retryAfterSeconds: 0 });
    await fetch(`${server.url}${LIST_ROUTE.replace('{workspaceId}', 'ws_1')}`);
    tracing.reset();
    const page = await client().apiKeys.list(server.workspaceIds.main, { limit: 5 }).firstPage();
    expect(page.data).toHaveLength(5);
    const spans = tracing.spans();
    const [call, ...otherCalls] = spans.filter((span) => span.name === 'cspwatch listApiKeys');
    expect(otherCalls).toEqual([]);
    expect(call!.status.code).toBe(SpanStatusCode.UNSET);
    const attempts = childrenOf(spans, call!);
    attempts.sort(
      (a, b) =>
        Number(a.attributes['http.request.resend_count'] ?? 0) -
        Number(b.attributes['http.request.resend_count'] ?? 0),
    );
    expect(attempts).toHaveLength(2);
    expect(attempts[0]!.attributes).toMatchObject({
      'http.response.status_code': 429,
      'error.type': '429',
    });
    expect(attempts[0]!.attributes).not.toHaveProperty('http.request.resend_count');
    expect(attempts[0]!.status.code).toBe(SpanStatusCode.ERROR);
    expect(attempts[1]!.attributes).toMatchObject({
      'http.response.status_code': 200,
      'http.request.resend_count': 1,
    });
    expect(attempts[1]!.status.code).toBe(SpanStatusCode.UNSET);
    const answers = attempts.map((attempt) => childrenOf(spans, attempt));
    expect(
      answers.map((list) => list.map((span) => span.attributes['http.response.status_code'])),
    ).toEqual([[429], [200]]);
    // A 4xx answer is the client's error, not the server's: the server span stays UNSET.
    expect(answers[0]![0]!.status.code).toBe(SpanStatusCode.UNSET);
  });

  it('a 4xx: the API-call span fails with the error code, the attempt with the status', async () => {
    const missing = client().apiKeys.list('ws_no_such_workspace').firstPage();
    await expect(missing).rejects.toBeInstanceOf(CspwatchNotFoundError);
    const spans = tracing.spans();
    const [call] = spans.filter((span) => span.name === 'cspwatch listApiKeys');
    expect(call!.status.code).toBe(SpanStatusCode.ERROR);
    expect(call!.attributes).toEqual({ 'error.type': 'workspace_not_found' });
    const [attempt] = childrenOf(spans, call!);
    expect(attempt!.status.code).toBe(SpanStatusCode.ERROR);
    expect(attempt!.attributes).toMatchObject({
      'http.response.status_code': 404,
      'error.type': '404',
    });
    const [answer] = childrenOf(spans, attempt!);
    expect(answer!.attributes).toMatchObject({ 'http.response.status_code': 404 });
  });

  it('a failed connection: error.type names the client’s code', async () => {
    const closed = await startMockServer({ seed: 3 });
    const url = closed.url;
    await closed.close();
    const unreachable = createCspwatchClient({
      baseUrl: url,
      token: 'tok_unreachable',
      maxRetries: 0,
    });
    await expect(unreachable.apiKeys.list('ws_1').firstPage()).rejects.toMatchObject({
      code: 'connection_failed',
    });
    const spans = tracing.spans();
    const [call] = spans.filter((span) => span.name === 'cspwatch listApiKeys');
    expect(call!.attributes['error.type']).toBe('connection_failed');
    const [attempt] = childrenOf(spans, call!);
    expect(attempt!.attributes['error.type']).toBe('connection_failed');
    expect(attempt!.attributes).not.toHaveProperty('http.response.status_code');
  });

  it('no token, secret or authorization appears in any span', async () => {
    const { tokens } = server;
    // A token function, a query and a cursor, a retried call and a refusal, all traced.
    const withFunction = createCspwatchClient({
      baseUrl: server.url,
      token: async () => tokens.admin,
    });
    server.service.setFaults({ rateLimitEvery: 2, retryAfterSeconds: 0 });
    await withFunction.apiKeys.list(server.workspaceIds.main, { limit: 10, q: 'e' }).toArray();
    // A token pasted into a search goes in the query: recorded by name only.
    await withFunction.apiKeys.list(server.workspaceIds.main, { q: tokens.admin }).toArray();
    await expect(
      createCspwatchClient({ baseUrl: server.url, token: tokens.apiKey })
        .apiKeys.list(server.workspaceIds.main)
        .firstPage(),
    ).rejects.toThrow();
    const spans = tracing.spans();
    expect(spans.length).toBeGreaterThan(6);
    const secrets = Object.values(tokens).filter(
      (value): value is string => typeof value === 'string',
    );
    expect(secrets.length).toBeGreaterThan(1);
    for (const span of spans) {
      for (const text of spanTexts(span)) {
        for (const secret of secrets) expect(text).not.toContain(secret);
        expect(text.toLowerCase()).not.toContain('bearer');
        expect(text.toLowerCase()).not.toContain('authorization');
      }
    }
  });
});
