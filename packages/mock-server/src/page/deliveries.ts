/**
 * The inbox page's main list: every delivery of every inbox channel, newest first, one line
 * each (time, channel, verdict, alert, status) that opens on the headers and the payload,
 * under the counts per verdict.
 */
import type { Inbox } from '../inbox/inbox';
import type { InboxDelivery } from '../inbox/types';
import { type Html, html } from './escape';
import { countVerdicts, verdictOf } from './verdict';

/** A delivery with the channel it came to and a key that stays the same across refreshes. */
interface ListedDelivery {
  channelId: string;
  key: string;
  delivery: InboxDelivery;
}

/** Every delivery, newest first (arrival order within the same millisecond). */
function listDeliveries(inbox: ReturnType<Inbox['entries']>): ListedDelivery[] {
  const listed = inbox.flatMap(({ id, channel }) =>
    channel.deliveries.map((delivery, index) => ({
      channelId: id,
      key: `${id}/${index}`,
      delivery,
    })),
  );
  return listed
    .reverse()
    .sort((a, b) => b.delivery.receivedAt.localeCompare(a.delivery.receivedAt));
}

const plural = (count: number, one: string, many: string): string => (count === 1 ? one : many);

function prettyPayload(raw: string): string {
  try {
    return JSON.stringify(JSON.parse(raw), null, 2);
  } catch {
    return raw;
  }
}

/** The alert's rule and id, from the verified event or, for a refused one, the body as sent. */
function alertSummary(delivery: InboxDelivery): string {
  let payload: unknown = delivery.event;
  if (payload === undefined) {
    try {
      payload = JSON.parse(delivery.rawBody);
    } catch {
      return 'body is not JSON';
    }
  }
  const { rule, id } = (typeof payload === 'object' && payload !== null ? payload : {}) as {
    rule?: unknown;
    id?: unknown;
  };
  const parts = [typeof rule === 'string' ? rule : '', typeof id === 'string' ? id : ''];
  return parts.filter(Boolean).join(' · ') || 'no rule or id in the body';
}

function renderRow({ channelId, key, delivery }: ListedDelivery): Html {
  const verdict = verdictOf(delivery);
  return html`<details class="row delivery" data-key="${key}" data-verdict="${verdict.kind}">
<summary><time datetime="${delivery.receivedAt}" title="${delivery.receivedAt}">${delivery.receivedAt.slice(11, 23)}</time><code class="channel-id">${channelId}</code><span class="verdict ${verdict.kind}">${verdict.label}</span><span class="what">${alertSummary(delivery)}</span><span class="status">${delivery.status ?? 'no answer'}</span></summary>
<div class="more"><table class="headers">${Object.entries(delivery.headers).map(
    ([name, value]) => html`<tr><th>${name}</th><td>${value}</td></tr>`,
  )}</table><pre class="payload">${prettyPayload(delivery.rawBody)}</pre></div>
</details>`;
}

/** The counts per verdict and the list of deliveries. */
export function renderDeliveries(inbox: ReturnType<Inbox['entries']>): Html {
  const listed = listDeliveries(inbox);
  const counts = countVerdicts(listed.map(({ delivery }) => delivery));
  const refused = counts.refused.reduce((sum, [, count]) => sum + count, 0);
  return html`<section id="deliveries"><p class="counts">
<span class="count" data-count="total"><strong>${counts.total}</strong> ${plural(counts.total, 'delivery', 'deliveries')}</span>
<span class="count accepted" data-count="accepted"><strong>${counts.accepted}</strong> accepted</span>
<span class="count refused" data-count="refused"><strong>${refused}</strong> refused${
    counts.refused.length > 0
      ? html` (${counts.refused.map(([code, count], index) => html`${index > 0 ? ', ' : ''}<span data-reason="${code}">${code} ${count}</span>`)})`
      : ''
  }</span>
<span class="count replay" data-count="replay"><strong>${counts.replay}</strong> ${plural(counts.replay, 'replay', 'replays')}</span></p>
${
  listed.length === 0
    ? html`<p class="empty">No delivery yet. Deliver to an inbox channel's URL (see Channels below), or send one with POST /_mock/trigger.</p>`
    : html`<div class="list">${listed.map(renderRow)}</div>`
}</section>`;
}
