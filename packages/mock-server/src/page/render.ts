/**
 * The inbox page (`GET /_mock/`): server-rendered HTML. First the counts per verdict and
 * every inbox delivery, newest first, one line each that opens on its headers and payload;
 * then the triggers sent to external receivers, the channels (both kinds explained) and the
 * alerts the service raised. No external assets: styles and the script (live refresh, the
 * Clear button) are inline, allowed by a nonce in the page's CSP; without the script the page
 * still reads, it just does not refresh.
 */
import type { MockAlertRecord } from '../alerts/alert-flow';
import type { TriggerRecord } from '../alerts/trigger-log';
import type { MockWebhookChannel } from '../alerts/webhook-channels';
import type { Inbox } from '../inbox/inbox';
import { PAGE_SCRIPT, PAGE_STYLE } from './assets';
import { renderDeliveries } from './deliveries';
import { Html, html } from './escape';
import { renderAlerts, renderChannels, renderTriggers } from './others';

/** What the page shows. */
export interface PageModel {
  inbox: ReturnType<Inbox['entries']>;
  webhookChannels: MockWebhookChannel[];
  alerts: MockAlertRecord[];
  triggers: TriggerRecord[];
  /** The change counter the script polls; not shown. */
  revision: number;
}

/** The part of the page that refreshes. */
export function renderSections(model: PageModel): Html {
  return html`${renderDeliveries(model.inbox)}
${renderTriggers(model.triggers)}
${renderChannels(model.inbox, model.webhookChannels)}
${renderAlerts(model.alerts)}`;
}

/** The whole page; `nonce` allows the inline style and script under the page's CSP. */
export function renderPage(model: PageModel, nonce: string): string {
  return html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>cspwatch mock · inbox</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style nonce="${nonce}">${new Html(PAGE_STYLE)}</style></head>
<body><header class="top"><h1>cspwatch mock · inbox</h1><p class="live" id="live">Updates by itself as deliveries arrive (times in UTC). Click a line for its headers and payload.</p><button type="button" id="clear" hidden title="Forget every inbox delivery and external trigger (channels, rules and alerts stay)">Clear</button></header>
<main id="app" data-revision="${model.revision}">${renderSections(model)}</main>
<script nonce="${nonce}">${new Html(PAGE_SCRIPT)}</script></body></html>`.value;
}
