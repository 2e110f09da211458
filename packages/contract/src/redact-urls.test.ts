import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { budget } from '../../../test-budget';
import { REDACTED, redactUrls } from './redact-urls';

/** Input and what is printed instead; the packages' sweeps rely on these cases. */
const VECTORS: [input: string, printed: string][] = [
  [
    'https://user:s3cr3t-PASSWORD@127.0.0.1:1/hook?token=s3cr3t-TOKEN',
    'https://127.0.0.1:1/hook?token=[redacted]',
  ],
  [
    'delivery to https://u:pw@hooks.example/x?sig=abc&n=2#frag failed',
    'delivery to https://hooks.example/x?sig=[redacted]&n=[redacted]#[redacted] failed',
  ],
  ['HTTPS://U:P@H.example', 'HTTPS://H.example'],
  ['https://user@h.example/', 'https://h.example/'],
  ['https://a@b@c.example/p@q', 'https://c.example/p@q'],
  ['https://u:p@[::1]:8080/', 'https://[::1]:8080/'],
  // Spellings the WHATWG parser accepts for special schemes.
  ['https:\\\\u:p@h.example\\x', 'https:\\\\h.example\\x'],
  ['https:u:p@h.example', 'https:h.example'],
  ['wss:///u:p@h.example/socket', 'wss:///h.example/socket'],
  ['postgres://user:pass@db:5432/x?sslmode=require', 'postgres://db:5432/x?sslmode=[redacted]'],
  ['ssh://git@github.com/org/repo', 'ssh://github.com/org/repo'],
  // Whitespace inside the userinfo: the parser sees one URL, so does the rule.
  ['https://a b:c d@h.example/', 'https://h.example/'],
  ['https://user:pa\nss@h.example/?q=1', 'https://h.example/?q=[redacted]'],
  // References without a scheme.
  ['//u:p@h.example/x?y=1', '//h.example/x?y=[redacted]'],
  ['GET /_mock/?token=abc 200 3 ms', 'GET /_mock/?token=[redacted] 200 3 ms'],
  ["Unknown option '--https://u:p@h/?token'", "Unknown option '--https://h/?[redacted]'"],
  // URLs inside JSON, also JSON inside JSON: quotes and backslashes end a value.
  ['{"url":"https://u:p@h/?a=b","x":1}', '{"url":"https://h/?a=[redacted]","x":1}'],
  [
    '{"url":"https://h.example","mail":"ops@h.example"}',
    '{"url":"https://h.example","mail":"ops@h.example"}',
  ],
  ["'https://u:p@h.example' or 'x@y'", "'https://h.example' or 'x@y'"],
  ["https://us'er:p@h.example/", 'https://h.example/'],
  [
    JSON.stringify({ r: '{"next":"https://h/?a=b"}' }),
    JSON.stringify({ r: `{"next":"https://h/?a=${REDACTED}"}` }),
  ],
  ['<https://h/?a=b>; rel="next"', '<https://h/?a=[redacted]>; rel="next"'],
  ['https://archive.example/2020/https://u:p@h/', 'https://archive.example/2020/https://h/'],
  ['https://h/?next=https://u:p@x/&a=', 'https://h/?next=[redacted]&a='],
  ['https://h/?', 'https://h/?'],
  // Nothing to do.
  ['user@example.com wrote at 10:30', 'user@example.com wrote at 10:30'],
  ['user:pass@host', 'user:pass@host'],
  ['mailto:ops@example.com?subject=x', 'mailto:ops@example.com?subject=x'],
  ['C:\\Users\\me and/or a/b?c=d', 'C:\\Users\\me and/or a/b?c=d'],
  [
    'file:///home/me/node_modules/@scope/pkg/x.js?v=1',
    'file:///home/me/node_modules/@scope/pkg/x.js?v=[redacted]',
  ],
  ['Error: connect ECONNREFUSED 127.0.0.1:1', 'Error: connect ECONNREFUSED 127.0.0.1:1'],
  ['', ''],
];

describe('redactUrls', () => {
  it.each(VECTORS)('prints %j as %j', (input, printed) => {
    expect(redactUrls(input)).toBe(printed);
    expect(redactUrls(printed)).toBe(printed);
  });

  it('never throws and stays linear on huge and degenerate strings', () => {
    const inputs = [
      'a'.repeat(2_000_000),
      'a:'.repeat(1_000_000),
      `https://${'a@'.repeat(1_000_000)}`,
      ` /x?${'&'.repeat(2_000_000)}`,
      `${'x'.repeat(1_000_000)}@ ${'https://u:p@h/?t=1 '.repeat(50_000)}`,
    ];
    const started = performance.now();
    for (const input of inputs) expect(typeof redactUrls(input)).toBe('string');
    expect(performance.now() - started).toBeLessThan(10_000);
    expect(redactUrls(`https://u:p@h/ ${'x'.repeat(100_000)}`)).not.toContain('u:p');
  });
});

const SPECIAL = ['http', 'https', 'HTTPS', 'ws', 'wss', 'ftp'];
/**
 * Characters a userinfo may hold, as typed: the parser encodes or drops what it must. Spaces,
 * `"`, `<`, `>` and backticks only when the URL is the whole text: in running text they end it.
 */
const userinfoNoise = (whole: boolean) =>
  fc.string({
    unit: fc.constantFrom(
      ...`aZ09-._~!$&'()*+,;=:%@{}|^é[]`.split(''),
      ...(whole ? [' ', '\t', '\n', '\r', '"', '<', '>', '`'] : []),
    ),
    maxLength: 5,
  });

/** A URL with a marked username and password, spelled any way the parser may accept. */
const markedUrl = (whole: boolean) =>
  fc
    .record({
      scheme: fc.constantFrom(...SPECIAL, 'git+ssh', 'x-y.z'),
      slashes: fc.constantFrom('//', '', '/', '\\\\', '/\\', '///'),
      user: fc.tuple(userinfoNoise(whole), userinfoNoise(whole)),
      password: fc.option(fc.tuple(userinfoNoise(whole), userinfoNoise(whole))),
      host: fc.constantFrom('h.example', '127.0.0.1', '[::1]', 'xn--bcher-kva.example'),
      port: fc.constantFrom('', ':8080'),
      rest: fc.tuple(fc.webPath(), fc.webQueryParameters(), fc.webFragments()),
    })
    .map(({ scheme, slashes, user, password, host, port, rest }) => {
      const separator = SPECIAL.includes(scheme) ? slashes : '//';
      const secret = password ? `:${password[0]}PASSMARK${password[1]}` : '';
      const [path, query, fragment] = rest;
      return `${scheme}:${separator}${user[0]}USERMARK${user[1]}${secret}@${host}${port}${path}?${query}#${fragment}`;
    });

/** The markers that the parser puts in the userinfo of `text` (it may read them elsewhere). */
function secretsOf(text: string): string[] {
  if (!URL.canParse(text)) return [];
  const { username, password } = new URL(text);
  return ['USERMARK', 'PASSMARK'].filter((m) => username.includes(m) || password.includes(m));
}

const printedWithout = (printed: string, secrets: string[]) => {
  const flat = printed.replace(/[\t\n\r]/g, '');
  return secrets.every((secret) => !flat.includes(secret));
};

describe('redactUrls, properties', { timeout: budget(30_000) }, () => {
  it('leaves no userinfo of any URL the WHATWG parser accepts, however it is spelled', () => {
    fc.assert(
      fc.property(markedUrl(true), fc.constantFrom('', ' ', '\t', '\u0001'), (url, edge) => {
        const text = `${edge}${url}${edge}`;
        const secrets = secretsOf(text);
        fc.pre(secrets.length > 0);
        expect(printedWithout(redactUrls(text), secrets)).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });

  it('leaves no userinfo of a URL inside a sentence', () => {
    fc.assert(
      fc.property(markedUrl(false), fc.constantFrom(' ', "'", '"', '(', '<'), (url, quote) => {
        const secrets = secretsOf(url);
        fc.pre(secrets.length > 0);
        const text = `delivery to ${quote}${url}${quote} failed: ${quote}${url}${quote}`;
        expect(printedWithout(redactUrls(text), secrets)).toBe(true);
      }),
      { numRuns: 1000 },
    );
  });

  it('prints a parsed URL without userinfo and with every query value redacted', () => {
    const urls = fc.webUrl({
      authoritySettings: { withUserInfo: true, withPort: true },
      withQueryParameters: true,
      withFragments: true,
    });
    fc.assert(
      fc.property(urls, (raw) => {
        const { href } = new URL(raw);
        const printed = redactUrls(`POST ${href} failed`).split(' ')[1] as string;
        const url = new URL(printed);
        expect([url.username, url.password]).toEqual(['', '']);
        for (const part of url.search.slice(1).split('&')) {
          expect(part).toMatch(/^(?:[^=]*=)?(?:\[redacted\])?$/);
        }
      }),
      { numRuns: 1000 },
    );
  });

  it('leaves text without a URL as it is', () => {
    const noSlash = fc.string({
      unit: fc.constantFrom(
        ...`aZ09 \t\n@:?=&#.,;!'"()<>[]{}-_%+*é`.split(''),
        'http',
        'mailto:',
        'user@example.com',
        '10:30',
      ),
      maxLength: 40,
    });
    fc.assert(
      fc.property(noSlash, (text) => {
        // The parser drops tabs and newlines: `http\n:a@b` is a URL.
        fc.pre(!/(?:https?|wss?|ftp):/i.test(text.replace(/[\t\n\r]/g, '')));
        expect(redactUrls(text)).toBe(text);
      }),
      { numRuns: 2000 },
    );
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), (text) => {
        fc.pre(!/[:/]/.test(text));
        expect(redactUrls(text)).toBe(text);
      }),
    );
  });

  it('never throws on any text, however broken its URLs', () => {
    const pieces = fc.array(
      fc.oneof(
        fc.webUrl({ authoritySettings: { withUserInfo: true }, withQueryParameters: true }),
        fc.constantFrom(' ', '@', ':', '//', '/', '\\', '?', '&', '=', '#', '"', 'https:', 'a'),
        fc.string({ unit: 'binary' }),
      ),
      { maxLength: 12 },
    );
    fc.assert(
      fc.property(pieces, (parts) => {
        expect(typeof redactUrls(parts.join(''))).toBe('string');
      }),
      { numRuns: 2000 },
    );
  });

  it('changes nothing on a second pass over sentences of URLs and words', () => {
    const sentence = fc.array(
      fc.oneof(
        fc.webUrl({
          authoritySettings: { withUserInfo: true, withPort: true },
          withQueryParameters: true,
          withFragments: true,
        }),
        fc.constantFrom('to', 'failed:', '(see', 'ops@example.com', '10:30', '/path?x=1', '"'),
      ),
      { maxLength: 8 },
    );
    fc.assert(
      fc.property(sentence, (words) => {
        const once = redactUrls(words.join(' '));
        expect(redactUrls(once)).toBe(once);
      }),
      { numRuns: 1000 },
    );
  });
});
