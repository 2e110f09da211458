/** The inbox page's inline style and script (no external assets: the mock runs offline). */

/** Inline CSS of the page: one line per delivery, details on demand. */
export const PAGE_STYLE = `
body{font:13px/1.4 system-ui,sans-serif;margin:0 1.25rem 1.5rem;color:#1d2430;background:#f6f7f9}
.top{display:flex;gap:1rem;align-items:baseline;position:sticky;top:0;background:#f6f7f9;padding:.6rem 0 .3rem;z-index:1}
h1{font-size:1.2rem;margin:0}h2{font-size:1rem;margin:1.25rem 0 .4rem}h2 small{color:#5b6472;font-weight:400}
.live,.empty,.explain{color:#5b6472;margin:0}.explain{margin:.3rem 0;max-width:75rem}.empty{margin:.3rem 0}
#clear{margin-left:auto;font:inherit;padding:.2rem .9rem;border:1px solid #b8bec7;border-radius:4px;background:#fff;cursor:pointer}
#clear:hover{background:#fbe3e3;border-color:#d9a3a3}
.counts{display:flex;flex-wrap:wrap;gap:.4rem 1.2rem;margin:.2rem 0 .5rem;padding:.4rem .6rem;background:#fff;border:1px solid #d9dde3;border-radius:6px}
.list{background:#fff;border:1px solid #d9dde3;border-radius:6px}
.row{border-top:1px solid #eceef1}.row:first-child{border-top:0}
.row>summary{display:flex;gap:.8rem;align-items:center;padding:.22rem .6rem;cursor:pointer;white-space:nowrap;list-style:none}
.row>summary::-webkit-details-marker{display:none}.row>summary::before{content:"\\25B8";color:#8a929e}.row[open]>summary::before{content:"\\25BE"}
.row[open]>summary{background:#f0f3f7}.row>summary:hover{background:#f3f5f8}
.what{flex:1;overflow:hidden;text-overflow:ellipsis}.status{font:12px ui-monospace,monospace;color:#5b6472;min-width:4.5rem;text-align:right}
time{font:12px ui-monospace,monospace;color:#5b6472}code{font:12px ui-monospace,monospace}
.verdict{font-weight:600;padding:0 .45rem;border-radius:4px;font-size:12px}
.accepted .verdict,.verdict.accepted,.count.accepted strong{color:#17643a}.verdict.accepted{background:#dff3e4}
.verdict.refused{background:#fbe3e3;color:#9b1c1c}.count.refused strong{color:#9b1c1c}
.verdict.replay{background:#fdf0d5;color:#7a4b00}.count.replay strong{color:#7a4b00}
.more{padding:.3rem .6rem .6rem 1.6rem}
pre{background:#0f1720;color:#e6edf3;padding:.6rem;border-radius:4px;overflow:auto;font-size:12px;max-height:20rem;margin:.4rem 0 0}
table{border-collapse:collapse;font-size:12px}th,td{text-align:left;padding:.15rem .5rem;border-bottom:1px solid #eceef1;vertical-align:top;word-break:break-all}
table.compact{background:#fff;border:1px solid #d9dde3}.url{font:12px ui-monospace,monospace}
`;

/**
 * Polls `/_mock/revision` twice a second; on a change, swaps in the server-rendered
 * `/_mock/fragment` (escaped on the server, so no value is ever built into markup here),
 * keeping open the lines that were open. Shows the Clear button, which calls
 * `DELETE /_mock/inbox/deliveries`. A `?token=` in the page's address is passed on, for a
 * mock bound beyond loopback.
 */
export const PAGE_SCRIPT = `
(() => {
  const token = new URLSearchParams(location.search).get('token');
  const query = token ? '?token=' + encodeURIComponent(token) : '';
  const app = document.getElementById('app');
  const clear = document.getElementById('clear');
  let revision = app.dataset.revision;
  async function swap(keepOpen) {
    const open = new Set(keepOpen ? [...app.querySelectorAll('details[open]')].map((node) => node.dataset.key) : []);
    const fragment = await fetch('/_mock/fragment' + query, { cache: 'no-store' });
    if (!fragment.ok) return;
    app.innerHTML = await fragment.text();
    for (const node of app.querySelectorAll('details')) if (open.has(node.dataset.key)) node.open = true;
    revision = fragment.headers.get('x-mock-revision') || revision;
    app.dataset.revision = revision;
  }
  async function refresh() {
    try {
      const state = await (await fetch('/_mock/revision' + query, { cache: 'no-store' })).json();
      if (String(state.revision) !== revision) await swap(true);
    } catch {}
    setTimeout(refresh, 500);
  }
  clear.hidden = false;
  clear.addEventListener('click', async () => {
    clear.disabled = true;
    try {
      const answer = await fetch('/_mock/inbox/deliveries' + query, { method: 'DELETE' });
      if (answer.ok) await swap(false);
    } catch {}
    clear.disabled = false;
  });
  setTimeout(refresh, 500);
})();
`;
