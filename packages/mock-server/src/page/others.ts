/**
 * The inbox page's other sections: triggers to external receivers, the two kinds of channel
 * explained in plain words, and the alerts the mock service raised.
 */
import type { MockAlertRecord } from '../alerts/alert-flow';
import type { TriggerRecord } from '../alerts/trigger-log';
import type { MockWebhookChannel } from '../alerts/webhook-channels';
import type { Inbox } from '../inbox/inbox';
import { type Html, html } from './escape';

/** `POST /_mock/trigger` sends to receivers outside the mock, newest first. */
export function renderTriggers(triggers: readonly TriggerRecord[]): Html {
  return html`<section id="triggers"><h2>Triggers to external receivers <small>${triggers.length}</small></h2>${
    triggers.length === 0
      ? html`<p class="empty">None. A POST /_mock/trigger to a URL outside this mock shows here, with the answer it got (the cspwatch-mock trigger command runs on its own and does not).</p>`
      : html`<table class="compact"><tr><th>time</th><th>receiver</th><th>verdict</th><th>status</th><th>alert</th></tr>${triggers.map(
          (t) =>
            html`<tr class="trigger"><td><time datetime="${t.sentAt}" title="${t.sentAt}">${t.sentAt.slice(11, 23)}</time></td><td class="url">${t.url}</td><td><span class="verdict ${t.ok ? 'accepted' : 'refused'}">${t.ok ? 'accepted' : `failed: ${t.cause ?? 'unknown'}`}</span></td><td class="status">${t.status ?? 'no answer'}</td><td>${t.rule} · ${t.alertId}</td></tr>`,
        )}</table>`
  }</section>`;
}

/** Both kinds of channel, each introduced by what it is for. */
export function renderChannels(
  inbox: ReturnType<Inbox['entries']>,
  webhookChannels: readonly MockWebhookChannel[],
): Html {
  return html`<section id="channels"><h2>Channels</h2>
<p class="explain"><strong><code>ch_…</code> inbox channels</strong> are receivers inside this mock: point your sender, or a webhook channel below, at the channel's URL; each delivery is verified with the channel's secret, answered like the SDK's adapters would (400 refused, 409 replay), and listed above.</p>
${
  inbox.length === 0
    ? html`<p class="empty">No inbox channel yet. Create one with POST /_mock/inbox/channels.</p>`
    : html`<table class="compact" id="inbox-channels"><tr><th>id</th><th>URL to deliver to</th><th>answers accepted deliveries with</th><th>deliveries</th></tr>${[
        ...inbox,
      ]
        .reverse()
        .map(
          ({ id, url, channel }) =>
            html`<tr class="channel" id="channel-${id}"><td><code>${id}</code></td><td class="url">${url}</td><td>${channel.response.hang ? 'no answer (hangs)' : channel.response.status}</td><td>${channel.deliveries.length}</td></tr>`,
        )}</table>`
}
<p class="explain"><strong><code>wh_…</code> webhook channels</strong> belong to the mock cspwatch service, as in its dashboard: when a CSP report shows a new violation type, the service signs an alert and sends it to each channel of the website's alert rules — your own handler, or an inbox channel above.</p>
${
  webhookChannels.length === 0
    ? html`<p class="empty">None. Create one with POST /_mock/webhook-channels.</p>`
    : html`<table class="compact" id="webhook-channels"><tr><th>id</th><th>name</th><th>URL</th><th>enabled</th><th>failures in a row</th></tr>${webhookChannels.map(
        (c) =>
          html`<tr><td><code>${c.id}</code></td><td>${c.name}</td><td class="url">${c.url}</td><td>${c.enabled ? 'yes' : 'no'}</td><td>${c.consecutiveFailures}</td></tr>`,
      )}</table>`
}</section>`;
}

/** The alerts the service raised, newest first, one line each with the payload on demand. */
export function renderAlerts(alerts: readonly MockAlertRecord[]): Html {
  return html`<section id="alerts"><h2>Alerts raised by the service <small>${alerts.length}</small></h2>${
    alerts.length === 0
      ? html`<p class="empty">None yet: an alert is raised when a report shows a new violation type for a website with an alert rule.</p>`
      : alerts.map(
          ({ alert, deliveries }) => html`<details class="row alert" data-key="alert/${alert.id}">
<summary><span class="what">${alert.rule} · ${alert.website.name} · ${alert.findingsCount} finding(s)</span><span class="status">${
            deliveries.length === 0
              ? 'no delivery yet'
              : deliveries
                  .map((d) => (d.ok ? `${d.channelId}: ${d.status}` : `${d.channelId}: ${d.cause}`))
                  .join(', ')
          }</span></summary>
<div class="more"><pre class="payload">${JSON.stringify(alert, null, 2)}</pre></div></details>`,
        )
  }</section>`;
}
