/** The inbox page's inline style and refresh script (no external assets: the mock runs offline). */

/** Inline CSS of the page. */
export const PAGE_STYLE = `
body{font:14px/1.45 system-ui,sans-serif;margin:1.5rem;color:#1d2430;background:#f6f7f9}
h1{font-size:1.4rem;margin:0 0 .25rem}h2{font-size:1.1rem;margin:1.5rem 0 .5rem}h3{font:600 13px ui-monospace,monospace;margin:0}
.live{color:#5b6472;margin:0 0 1rem}.empty{color:#5b6472}
.channel,.alert{background:#fff;border:1px solid #d9dde3;border-radius:6px;padding:.75rem;margin:.5rem 0}
.url{color:#5b6472;font:12px ui-monospace,monospace;margin:.25rem 0 .5rem;word-break:break-all}
.delivery{border-top:1px solid #eceef1;padding:.5rem 0}.delivery header{display:flex;gap:.75rem;align-items:center}
.verdict{font-weight:600;padding:.1rem .45rem;border-radius:4px}.ok{background:#dff3e4;color:#17643a}.bad{background:#fbe3e3;color:#9b1c1c}
time,.answer{color:#5b6472;font-size:12px}
pre{background:#0f1720;color:#e6edf3;padding:.6rem;border-radius:4px;overflow:auto;font-size:12px;max-height:20rem}
table{border-collapse:collapse;font-size:12px}th,td{text-align:left;padding:.15rem .5rem;border-bottom:1px solid #eceef1;vertical-align:top;word-break:break-all}
`;

/**
 * Polls `/_mock/revision` twice a second; on a change, swaps in the server-rendered
 * `/_mock/fragment` (escaped on the server, so no value is ever built into markup here).
 * A `?token=` in the page's address is passed on, for a mock bound beyond loopback.
 */
export const PAGE_SCRIPT = `
(() => {
  const token = new URLSearchParams(location.search).get('token');
  const query = token ? '?token=' + encodeURIComponent(token) : '';
  const app = document.getElementById('app');
  const shown = document.getElementById('revision');
  let revision = app.dataset.revision;
  async function refresh() {
    try {
      const state = await (await fetch('/_mock/revision' + query, { cache: 'no-store' })).json();
      if (String(state.revision) !== revision) {
        const fragment = await fetch('/_mock/fragment' + query, { cache: 'no-store' });
        app.innerHTML = await fragment.text();
        revision = fragment.headers.get('x-mock-revision') || String(state.revision);
        app.dataset.revision = revision;
        shown.textContent = revision;
      }
    } catch {}
    setTimeout(refresh, 500);
  }
  setTimeout(refresh, 500);
})();
`;
