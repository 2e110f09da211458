/**
 * Entry of the smoke suite for workerd: a module Worker that takes the config as the JSON
 * body of a POST and answers with the checks. Bundled by esbuild for the browser platform
 * with the `workerd` condition first, so a `node:` import anywhere in the graph fails the
 * bundle.
 */
import { runSmoke, type SmokeConfig } from './suite.js';

export default {
  async fetch(request: Request): Promise<Response> {
    const config = (await request.json()) as SmokeConfig;
    return Response.json({ checks: await runSmoke(config) });
  },
};
