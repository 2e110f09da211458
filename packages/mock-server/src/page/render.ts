/**
 * The inbox page (`GET /_mock/`): server-rendered HTML of the inbox channels and their
 * deliveries, newest first, with the verdict, headers, pretty-printed payload and the
 * answer given; then the service's webhook channels and the alerts it raised. No external
 * assets: styles and the refresh script are inline, allowed by a nonce in the page's CSP.
 */
import type { MockAlertRecord } from '../alerts/alert-flow';
import type { MockWebhookChannel } from '../alerts/webhook-channels';
import type { Inbox } from '../inbox';
import type { InboxDelivery } from '../inbox-types';
import { PAGE_SCRIPT, PAGE_STYLE } from './assets';
import { Html, html } from './escape';

/** What the page shows. */
export interface PageModel {
  inbox: ReturnType<Inbox['entries']>;
  webhookChannels: MockWebhookChannel[];
  alerts: MockAlertRecord[];
  revision: number;
}

function prettyPayload(raw: string): string {
  try {
    return JSON.stringify(JSON.parse(raw), null, 2);
  } catch {
    return raw;
  }
}

function renderDelivery(delivery: InboxDelivery): Html {
  const verdict = delivery.verified
    ? html`<span class="verdict ok">verified</span>`
    : html`<span class="verdict bad">failed: ${delivery.errorCode ?? 'unknown'}</span>`;
  const answer = delivery.status === null ? 'no answer (hung)' : `answered ${delivery.status}`;
  return html`<article class="delivery" data-verified="${delivery.verified}">
  <header>${verdict} <span class="answer">${answer}</span> <time>${delivery.receivedAt}</time></header>
  <details><summary>Headers</summary><table class="headers">${Object.entries(delivery.headers).map(
    ([name, value]) => html`<tr><th>${name}</th><td>${value}</td></tr>`,
  )}</table></details>
  <pre class="payload">${prettyPayload(delivery.rawBody)}</pre>
</article>`;
}

/** The part of the page that refreshes: inbox channels, webhook channels, alerts. */
export function renderSections(model: PageModel): Html {
  const channels = [...model.inbox].reverse();
  return html`<section id="inbox"><h2>Inbox channels</h2>${
    channels.length === 0
      ? html`<p class="empty">No inbox channel yet. Create one with POST /_mock/inbox/channels.</p>`
      : ''
  }${channels.map(
    ({ id, url, channel }) => html`<section class="channel" id="channel-${id}">
  <h3>${id}</h3><p class="url">${url} · answers ${channel.response.hang ? 'never (hang)' : channel.response.status} · ${channel.deliveries.length} deliveries</p>
  ${[...channel.deliveries].reverse().map(renderDelivery)}
</section>`,
  )}</section>
<section id="webhook-channels"><h2>Webhook channels of the service</h2>${
    model.webhookChannels.length === 0
      ? html`<p class="empty">None. Create one with POST /_mock/webhook-channels.</p>`
      : html`<table><tr><th>id</th><th>name</th><th>url</th><th>enabled</th><th>failures</th></tr>${model.webhookChannels.map(
          (c) =>
            html`<tr><td>${c.id}</td><td>${c.name}</td><td>${c.url}</td><td>${c.enabled ? 'yes' : 'no'}</td><td>${c.consecutiveFailures}</td></tr>`,
        )}</table>`
  }</section>
<section id="alerts"><h2>Alerts raised</h2>${model.alerts.map(
    ({
      alert,
      deliveries,
    }) => html`<article class="alert"><header>${alert.rule} · ${alert.website.name} · ${alert.findingsCount} finding(s) · ${deliveries.map((d) => (d.ok ? `${d.channelId}: ${d.status}` : `${d.channelId}: ${d.cause}`)).join(', ')}</header>
<pre class="payload">${JSON.stringify(alert, null, 2)}</pre></article>`,
  )}</section>`;
}

/** The whole page; `nonce` allows the inline style and script under the page's CSP. */
export function renderPage(model: PageModel, nonce: string): string {
  return html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>cspwatch mock · inbox</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style nonce="${nonce}">${new Html(PAGE_STYLE)}</style></head>
<body><h1>cspwatch mock · inbox</h1><p class="live">Live: refreshes when something arrives (revision <span id="revision">${model.revision}</span>).</p>
<main id="app" data-revision="${model.revision}">${renderSections(model)}</main>
<script nonce="${nonce}">${new Html(PAGE_SCRIPT)}</script></body></html>`.value;
}
