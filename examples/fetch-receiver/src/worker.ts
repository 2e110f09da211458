/**
 * Cloudflare Workers / Deno / Bun entry: `export default { fetch }`. The secret comes from the
 * platform's environment (`wrangler secret put CSPWATCH_WEBHOOK_SECRET`).
 */
import { createApp } from './app';

/** Bindings this worker expects. */
export interface Env {
  CSPWATCH_WEBHOOK_SECRET: string;
}

let app: ReturnType<typeof createApp> | undefined;

export default {
  fetch(request: Request, env: Env): Response | Promise<Response> {
    if (!env.CSPWATCH_WEBHOOK_SECRET) {
      return new Response('CSPWATCH_WEBHOOK_SECRET is not configured', { status: 500 });
    }
    app ??= createApp({ secret: env.CSPWATCH_WEBHOOK_SECRET });
    return app.fetch(request);
  },
};
