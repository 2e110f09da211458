import type { CspwatchEvent } from '@cspwatch/webhooks';
import { cspwatchWebhook, getCspwatchEvent } from '@cspwatch/webhooks/express';
import express, { type ErrorRequestHandler, type Express } from 'express';
import { summarizeAlert } from './summarize';

/** Options of {@link createApp}. */
export interface ReceiverOptions {
  /** The channel's signing secret, or several while rotating (any match passes). */
  secret: string | readonly string[];
  /** Where log lines go. @default console.log */
  log?: (line: string) => void;
  /** Your handling of a verified alert (store it, page someone, …). */
  onAlert?: (event: CspwatchEvent) => void | Promise<void>;
}

/**
 * An Express 5 app that accepts cspwatch deliveries at `POST /webhooks/cspwatch`: 204 for a
 * verified alert, 400 `application/problem+json` (with a `code`) for anything else, 413 for a
 * body over 1 MiB.
 */
export function createApp(options: ReceiverOptions): Express {
  const { secret, log = console.log, onAlert } = options;
  const app = express();
  app.disable('x-powered-by');

  // The webhook route comes before any express.json(): the signature covers the raw bytes,
  // which the middleware reads itself (up to maxBodyBytes, 1 MiB; more is answered 413).
  app.post(
    '/webhooks/cspwatch',
    cspwatchWebhook({
      secret,
      maxBodyBytes: 1_048_576,
      // Called before the 400 (or 413) goes out; it can log, never accept the delivery.
      onRejected: (error) => log(`rejected delivery: ${error.code}`),
    }),
    async (req, res) => {
      const event = getCspwatchEvent(req);
      log(summarizeAlert(event));
      await onAlert?.(event);
      res.sendStatus(204);
    },
  );

  // The rest of your app can parse JSON as usual.
  app.use(express.json());
  app.get('/healthz', (_req, res) => {
    res.json({ ok: true });
  });

  const handleError: ErrorRequestHandler = (error: unknown, _req, res, _next) => {
    log(`error: ${error instanceof Error ? error.message : String(error)}`);
    res.status(500).json({ error: 'internal_error' });
  };
  app.use(handleError);
  return app;
}
