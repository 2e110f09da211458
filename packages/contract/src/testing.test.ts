import { describe, expect, it } from 'vitest';
import { OpenApiValidator } from './testing';

const validator = new OpenApiValidator();
const url = 'http://127.0.0.1:1/v1/workspaces/ws_1/api-keys?limit=2';
const problemBody = {
  type: 'urn:cspwatch:problem:rate_limited',
  title: 'Too many requests',
  status: 429,
  detail: 'Retry after 1 s.',
  code: 'rate_limited',
};
const headers = (extra: Record<string, string> = {}) =>
  new Headers({ 'content-type': 'application/problem+json', 'x-request-id': 'req_1', ...extra });
const check = (status: number, h: Headers, body: unknown, method = 'GET') =>
  validator.checkResponse({ method, url, status, headers: h, body: JSON.stringify(body) });

describe('OpenApiValidator', () => {
  it('accepts a documented problem response with its headers', () => {
    expect(check(429, headers({ 'retry-after': '1' }), problemBody)).toEqual([]);
  });

  it('accepts what an open response may grow: a new code, a new field, an HTTP-date Retry-After', () => {
    const later = headers({ 'retry-after': 'Wed, 21 Oct 2026 07:28:00 GMT' });
    expect(check(429, later, problemBody)).toEqual([]);
    expect(check(429, later, { ...problemBody, code: 'slow_down', retryInSeconds: 1 })).toEqual([]);
  });

  it('reports a missing header, an undocumented status, a wrong type and a wrong content type', () => {
    expect(check(429, headers(), problemBody).join()).toMatch(/retry-after is missing/);
    expect(check(418, headers(), problemBody).join()).toMatch(/status 418 is not documented/);
    expect(check(429, headers({ 'retry-after': '1' }), { ...problemBody, code: 7 })).not.toEqual(
      [],
    );
    const { detail: _, ...withoutDetail } = problemBody;
    expect(check(429, headers({ 'retry-after': '1' }), withoutDetail).join()).toMatch(/detail/);
    expect(
      check(
        429,
        new Headers({
          'content-type': 'application/json',
          'x-request-id': 'r',
          'retry-after': '1',
        }),
        problemBody,
      ).join(),
    ).toMatch(/content type "application\/json"/);
  });

  it('skips operations the document does not have', () => {
    expect(check(418, headers(), {}, 'DELETE')).toEqual([]);
  });

  it('checks requests: parameters, unknown query names, auth and body', () => {
    const auth = new Headers({ authorization: 'Bearer t', 'content-type': 'application/json' });
    const request = (target: string, method = 'GET', body = '', h = auth) =>
      validator.checkRequest({ method, url: target, headers: h, body });
    expect(request(url)).toEqual([]);
    expect(request(`${url}&limit=0`.replace('limit=2&', ''))).not.toEqual([]);
    expect(request(`${url}&page=2`).join()).toMatch(/query parameter page is not documented/);
    expect(request(url, 'GET', '', new Headers()).join()).toMatch(/Authorization/);
    const sites = 'http://127.0.0.1:1/v1/workspaces/ws_1/websites';
    expect(request(sites, 'POST', '{"name":"a","url":"https://a.example"}')).toEqual([]);
    expect(
      request(sites, 'POST', '{"name":"a","url":"https://a.example","settings":{"x":1}}'),
    ).not.toEqual([]);
  });
});
