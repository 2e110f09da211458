/*
 * The one rule for URLs in printed text (docs/client-reference.md, "Errors": no userinfo, every query value redacted): what a
 * CLI prints, an error message says or a log line holds passes through `redactUrls` first.
 * Bundled from here into every package that prints (client, webhook-sender, mock-server).
 */

/** What stands in for a removed query or fragment value. */
export const REDACTED = '[redacted]';

const SPECIAL_SCHEMES = new Set(['http', 'https', 'ws', 'wss', 'ftp']);
const SPACE = /\s/;
/**
 * Where a URL's authority ends in text, besides where the parser ends it: a space, or a
 * character the parser never leaves unencoded in a userinfo (`"`, `<`, `>`, a backtick).
 */
const TEXT_BREAK = /[\s"`<>]/;
const LETTER = /[A-Za-z]/;
const SCHEME_CHAR = /[A-Za-z0-9+.-]/;
/** What may stand before a `/` or `//` that starts a reference: start, space, quote, bracket. */
const OPENER = /[\s"'`(<[{=,;]/;
/** Where a query or fragment value ends in text: `&`, `#`, space, quote, angle bracket, `\`. */
const VALUE_END = /[&#\s"'`<>\\]/;

const parse = (text: string): URL | undefined => {
  try {
    return new URL(text);
  } catch {
    return undefined;
  }
};

/** Every URL in `text` without userinfo and with every query and fragment value replaced. */
function scan(text: string): string {
  let out = '';
  let done = 0; // text[0, done) is in `out`
  let inUrl = false; // between the start of a URL and the next space
  for (let i = 0; i < text.length; i++) {
    const char = text[i] as string;
    let authority = -1;
    let special = true;
    if (SPACE.test(char)) inUrl = false;
    else if (char === ':') {
      let start = i;
      while (start > 0 && SCHEME_CHAR.test(text[start - 1] as string)) start--;
      while (start < i && !LETTER.test(text[start] as string)) start++;
      const scheme = text.slice(start, i).toLowerCase();
      special = SPECIAL_SCHEMES.has(scheme);
      if (special) {
        // Like the WHATWG parser: any run of `/` and `\`, or none, before the authority.
        authority = i + 1;
        while (text[authority] === '/' || text[authority] === '\\') authority++;
      } else if (scheme && text.startsWith('//', i + 1)) authority = i + 3;
    } else if (char === '/' && (i === 0 || OPENER.test(text[i - 1] as string))) {
      inUrl = true;
      if (text[i + 1] === '/') authority = i + 2;
    } else if (inUrl && (char === '?' || char === '#')) {
      // Each `name=value` keeps its name; a part without `=` is all value.
      let part = i + 1;
      for (;;) {
        let end = part;
        let value = part;
        while (end < text.length && !VALUE_END.test(text[end] as string)) {
          if (text[end] === '=' && value === part) value = end + 1;
          end++;
        }
        if (end > value) {
          out += text.slice(done, value) + REDACTED;
          done = end;
        }
        if (text[end] !== '&') {
          inUrl = text[end] === '#';
          i = end - 1;
          break;
        }
        part = end + 1;
      }
    }
    if (authority < 0) continue;
    inUrl = true;
    for (;;) {
      // The userinfo ends at the authority's last `@`, as the parser reads it.
      let end = authority;
      let at = -1;
      for (; end < text.length; end++) {
        const next = text[end] as string;
        if (next === '/' || next === '?' || next === '#' || TEXT_BREAK.test(next)) break;
        if (special && next === '\\') break;
        if (next === '@') at = end;
      }
      if (at >= 0) {
        out += text.slice(done, authority);
        done = at + 1;
      }
      i = end - 1;
      // With the userinfo gone, slashes right after it join the special scheme's: read on.
      const slash = text[end] === '/' || text[end] === '\\';
      if (!special || char !== ':' || at < 0 || end !== at + 1 || !slash) break;
      authority = end;
      while (text[authority] === '/' || text[authority] === '\\') authority++;
    }
  }
  return out + text.slice(done);
}

/**
 * Removes the userinfo (`user:password@`) of every URL in `text` and replaces every query and
 * fragment value with `[redacted]`, keeping the names: `https://u:p@host/hook?token=abc` becomes
 * `https://host/hook?token=[redacted]`. URLs are found as the WHATWG parser reads them (any
 * scheme with `//`, `http(s)`, `ws(s)` and `ftp` with any slashes), and so are `//host` and
 * `/path?query` references after a space, quote or bracket. Text without a URL comes back
 * unchanged; nothing throws; time is linear in the length.
 *
 * Every query value goes, not only `token=` or `key=`: webhook providers put credentials
 * under any name (`code`, `sig`, `X-Amz-Signature`, …), and the names still show the shape.
 * Paths are kept: they locate the endpoint, and a reader needs them.
 *
 * @example
 * ```ts
 * redactUrls('POST to https://user:pw@hooks.example/x?sig=abc failed');
 * // 'POST to https://hooks.example/x?sig=[redacted] failed'
 * ```
 */
export function redactUrls(text: string): string {
  // Without a space or a quote, the scan reads a userinfo exactly as the parser does. With
  // one, the parser has the last word: when the whole text is one URL with a userinfo (a
  // space, a tab or a quote inside it stops the scan), it is printed as the parser writes it.
  const url = TEXT_BREAK.test(text) && text.includes('@') ? parse(text) : undefined;
  if (!url || (url.username === '' && url.password === '')) return scan(text);
  url.username = '';
  url.password = '';
  return scan(url.href);
}
