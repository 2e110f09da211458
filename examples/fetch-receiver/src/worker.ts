/**
 * Cloudflare Workers entry: `export default { fetch }`. The secret comes from the platform's
 * environment (`wrangler secret put CSPWATCH_WEBHOOK_SECRET`).
 */
import { createApp } from './app';

/** Bindings this worker expects. */
export interface Env {
  CSPWATCH_WEBHOOK_SECRET?: string;
}

// An isolate serves every request with the same bindings; Workers hand them to fetch only.
let bindings: Env | undefined;

// Created once, with the secret as a function read per request: a missing binding is a 500
// (invalid_secret), never a 400 that cspwatch would count against the channel.
const app = createApp({ secret: () => bindings?.CSPWATCH_WEBHOOK_SECRET });

export default {
  fetch(request: Request, env: Env): Response | Promise<Response> {
    bindings = env;
    return app.fetch(request);
  },
};
