import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { escapeHtml, html } from './escape';

// Any code point (lone surrogates too), with the characters that matter drawn often. Much
// faster than fast-check's 'binary' unit, which made this test time out on a busy machine.
const character = fc.oneof(
  fc.constantFrom('&', '<', '>', '"', "'", '`', ';', '#', 'a'),
  fc.integer({ min: 0, max: 0x10ffff }).map((code) => String.fromCodePoint(code)),
);

describe('escapeHtml and html``', () => {
  it('leaves no character that could open markup or end an attribute', () => {
    fc.assert(
      fc.property(fc.string({ unit: character }), (text) => {
        expect(escapeHtml(text)).not.toMatch(/[<>"'`]/);
        expect(escapeHtml(text).replace(/&(amp|lt|gt|quot|#39|#96);/g, '')).not.toContain('&');
      }),
    );
  });

  it('round-trips through the browser-side decoding', () => {
    fc.assert(
      fc.property(fc.string(), (text) => {
        const decoded = escapeHtml(text)
          .replaceAll('&lt;', '<')
          .replaceAll('&gt;', '>')
          .replaceAll('&quot;', '"')
          .replaceAll('&#39;', "'")
          .replaceAll('&#96;', '`')
          .replaceAll('&amp;', '&');
        expect(decoded).toBe(text);
      }),
    );
  });

  it('escapes interpolations, nested arrays too, but not markup built by html``', () => {
    const inner = html`<b>${'<i>'}</b>`;
    expect(html`<p title="${'"x'}">${[inner, '<script>']}</p>`.value).toBe(
      '<p title="&quot;x"><b>&lt;i&gt;</b>&lt;script&gt;</p>',
    );
    expect(html`${undefined}${null}${false}${0}`.value).toBe('0');
  });
});
