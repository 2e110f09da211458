/** The inbox page and its refresh endpoints. */

import { json } from '../http/problem';
import { type PageModel, renderPage, renderSections } from '../page/render';
import type { RouteContext, RouteHandler } from '../routes/context';
import { randomHex } from '../store/tokens';

async function model(context: RouteContext): Promise<PageModel> {
  return {
    inbox: context.inbox.entries(),
    webhookChannels: await context.webhookChannels.list(),
    alerts: context.alerts.log,
    triggers: context.triggers.entries,
    revision: context.revision.value,
  };
}

/** `GET /_mock/`: the inbox page, under a strict CSP that allows only its own inline style and script. */
export const inboxPage: RouteHandler = async (_request, _params, context) => {
  const nonce = randomHex(32);
  return new Response(renderPage(await model(context), nonce), {
    headers: {
      'content-type': 'text/html; charset=utf-8',
      'cache-control': 'no-store',
      'content-security-policy': `default-src 'none'; style-src 'nonce-${nonce}'; script-src 'nonce-${nonce}'; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`,
      'x-content-type-options': 'nosniff',
    },
  });
};

/** `GET /_mock/fragment`: the refreshing part of the page, as HTML. */
export const pageFragment: RouteHandler = async (_request, _params, context) => {
  const current = await model(context);
  return new Response(renderSections(current).value, {
    headers: {
      'content-type': 'text/html; charset=utf-8',
      'cache-control': 'no-store',
      'x-mock-revision': String(current.revision),
      'x-content-type-options': 'nosniff',
    },
  });
};

/** `GET /_mock/revision`: `{ revision }`, bumped on every change the page shows. */
export const pageRevision: RouteHandler = async (_request, _params, { revision }) =>
  json({ revision: revision.value }, 200, { 'cache-control': 'no-store' });
