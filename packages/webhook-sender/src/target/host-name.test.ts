import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkWebhookTargetStatic } from './target-policy';

// Numeric-looking labels (`12`, `0x1f`) make the WHATWG parser read the host as IPv4, and
// `xn--` labels must be valid punycode: neither is a plain name.
const label = fc
  .stringMatching(/^[a-z0-9]([a-z0-9-]{0,10}[a-z0-9])?$/)
  .filter((l) => !/^(\d+|0x[0-9a-f]*)$/.test(l) && !l.startsWith('xn--'));
const special = fc.constantFrom('localhost', 'local', 'internal'); // reasons: `${last}_name`
const randomCase = (text: string, flips: boolean[]) =>
  [...text].map((c, i) => (flips[i % flips.length] ? c.toUpperCase() : c)).join('');

describe('host name rules (property)', () => {
  it('refuses any name ending in localhost/local/internal, whatever the case, dot or port', () => {
    fc.assert(
      fc.property(
        fc.array(label, { maxLength: 3 }),
        special,
        fc.array(fc.boolean(), { minLength: 1, maxLength: 8 }),
        fc.boolean(),
        fc.option(fc.integer({ min: 1, max: 65535 }), { nil: undefined }),
        (labels, last, flips, trailingDot, port) => {
          const host = randomCase([...labels, last].join('.'), flips) + (trailingDot ? '.' : '');
          const verdict = checkWebhookTargetStatic(`https://${host}${port ? `:${port}` : ''}/hook`);
          expect(verdict).toMatchObject({ allowed: false, reason: `${last}_name` });
        },
      ),
      { numRuns: 300 },
    );
  });

  it('accepts any multi-label name with an ordinary last label, and refuses single labels', () => {
    fc.assert(
      fc.property(
        fc.array(label, { minLength: 1, maxLength: 4 }),
        fc.constantFrom('com', 'org', 'io', 'dev', 'example'),
        fc.boolean(),
        (labels, tld, trailingDot) => {
          const multi = checkWebhookTargetStatic(
            `https://${[...labels, tld].join('.')}${trailingDot ? '.' : ''}/`,
          );
          expect(multi).toMatchObject({ allowed: true, hostKind: 'name' });
          const single = checkWebhookTargetStatic(`https://${labels[0]}${trailingDot ? '.' : ''}/`);
          expect(single).toMatchObject({ allowed: false, reason: 'single_label_name' });
        },
      ),
      { numRuns: 300 },
    );
  });

  it('refuses any name with an empty label', () => {
    fc.assert(
      fc.property(fc.array(label, { minLength: 2, maxLength: 4 }), fc.nat(), (labels, at) => {
        const parts = [...labels];
        parts.splice(at % (parts.length + 1), 0, '');
        const host = parts.join('.');
        if (host.endsWith('.') && !host.endsWith('..')) return; // one trailing dot is allowed
        expect(checkWebhookTargetStatic(`https://${host}/`)).toMatchObject({
          allowed: false,
          reason: 'empty_label',
        });
      }),
      { numRuns: 300 },
    );
  });
});
