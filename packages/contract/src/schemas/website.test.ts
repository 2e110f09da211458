import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { toFieldErrors } from './field-errors';
import { CreateWebsiteRequestSchema, UNKNOWN_FIELD_MESSAGE } from './website';

const errorsOf = (body: unknown) => {
  const result = CreateWebsiteRequestSchema.safeParse(body);
  return result.success ? [] : toFieldErrors(result.error.issues);
};
const paths = (body: unknown) => errorsOf(body).map((error) => error.path);

describe('CreateWebsiteRequestSchema', () => {
  it('accepts a minimal body and one with every setting', () => {
    expect(paths({ name: 'Shop', url: 'https://shop.example.com' })).toEqual([]);
    const settings = {
      allowedOrigins: ['https://a.example', 'http://localhost:3000'],
      dropQueryAndFragments: true,
      dropReferrer: false,
      dropReportsFromExtensions: false,
    };
    expect(paths({ name: 'Shop', url: 'HTTP://shop.example.com/a?b#c', settings })).toEqual([]);
  });

  it('refuses unknown fields at the top and inside settings, naming each one', () => {
    expect(errorsOf({ name: 'ok', url: 'https://a.example', extra: 1 })).toEqual([
      { path: 'extra', message: UNKNOWN_FIELD_MESSAGE },
    ]);
    expect(
      paths({ name: 'ok', url: 'https://a.example', settings: { sampling: 0.5, dropReferrer: 1 } }),
    ).toEqual(['settings.dropReferrer', 'settings.sampling']);
  });

  it('lists every invalid field with dot paths', () => {
    expect(paths({})).toEqual(['name', 'url']);
    expect(paths({ name: '', url: '/relative' })).toEqual(['name', 'url']);
    expect(paths({ name: '   ', url: 'ftp://a.example' })).toEqual(['name', 'url']);
    expect(paths({ name: 'x'.repeat(256), url: `https://a.example/${'a'.repeat(2040)}` })).toEqual([
      'name',
      'url',
    ]);
    expect(
      paths({
        name: 'ok',
        url: 'https://ok.example',
        settings: { allowedOrigins: ['https://a.example/path', 7] },
      }),
    ).toEqual(['settings.allowedOrigins.0', 'settings.allowedOrigins.1']);
    expect(paths({ name: 'ok', url: 'https://ok.example', settings: [] })).toEqual(['settings']);
    expect(paths(null)).toEqual(['(body)']);
    expect(paths([])).toEqual(['(body)']);
  });

  it('counts the name in code points: 255 emoji pass, 256 do not', () => {
    const url = 'https://a.example';
    expect(paths({ name: '😀'.repeat(255), url })).toEqual([]);
    expect(paths({ name: '😀'.repeat(256), url })).toEqual(['name']);
    const longest = `https://a.example/${'a'.repeat(2048 - 'https://a.example/'.length)}`;
    expect(paths({ name: 'x', url: longest })).toEqual([]);
    expect(paths({ name: 'x', url: `${longest}a` })).toEqual(['url']);
  });

  it('takes url in URI format (RFC 3986): every http(s) URI the WHATWG parser reads (property)', () => {
    fc.assert(
      fc.property(
        fc.webUrl({
          validSchemes: ['http', 'https'],
          withQueryParameters: true,
          withFragments: true,
          authoritySettings: { withPort: true, withUserInfo: true, withIPv4: true },
        }),
        (url) => {
          fc.pre(url.length <= 2048 && URL.canParse(url));
          expect(paths({ name: 'x', url })).toEqual([]);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('refuses a url that is not a URI: a bad percent escape, a second #, brackets in the path', () => {
    for (const url of [
      'https://a.example/%zz',
      'https://a.example/100%',
      'https://a.example/a%2',
      'https://a.example/?q=%G1',
      'https://a.example/#a#b',
      'https://a.example/[x]',
      'https://a.example/?q=[1]',
    ]) {
      expect(paths({ name: 'x', url }), url).toEqual(['url']);
    }
    fc.assert(
      fc.property(
        fc.webUrl({ validSchemes: ['https'], withQueryParameters: true }),
        fc.constantFrom('%', '%g0', '%0', '%%41', '#x#', '[', ']'),
        (url, bad) => {
          fc.pre(URL.canParse(url));
          const broken = `${url.split('#')[0]}${url.includes('?') ? '&' : '/'}${bad}`;
          expect(paths({ name: 'x', url: broken })).toEqual(['url']);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('never throws, whatever the body (property)', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (body) => {
        const errors = errorsOf(body);
        for (const error of errors) expect(error.path.length).toBeGreaterThan(0);
      }),
      { numRuns: 300 },
    );
  });
});

describe('CreateWebsiteRequestSchema messages', () => {
  it('says a missing field is required and a wrong type what it must be', () => {
    expect(errorsOf({ url: 'https://a.example' })).toEqual([
      { path: 'name', message: 'is required: 1 to 255 characters' },
    ]);
    expect(errorsOf({ name: 'a', url: 5 })).toEqual([
      { path: 'url', message: 'must be a string: an absolute http: or https: URL' },
    ]);
  });
});
