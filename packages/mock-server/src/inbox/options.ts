import { issue } from '@cspwatch/internal';
import { MIN_SECRET_LENGTH, type ReplayGuard, secretProblem } from '@cspwatch/webhooks';
import { requireValid, throwIfIssues } from '../options';
import { InboxResponseSchema } from '../rules/inbox-response';
import type { InboxDelivery, InboxResponse } from './types';

/** A channel's state inside the inbox. */
export interface Channel {
  secret: string | readonly string[];
  response: Required<Pick<InboxResponse, 'status' | 'hang'>> & Pick<InboxResponse, 'location'>;
  deliveries: InboxDelivery[];
  /** Refuses a signed request seen before with `409 replayed_delivery`, as the adapters' `replay: true`. */
  replayGuard: ReplayGuard;
}

/** Validates how a channel answers, filling in the defaults. */
export function checkResponse(response: InboxResponse = {}): Channel['response'] {
  const { location, ...rest } = requireValid('response', InboxResponseSchema, response);
  return location === undefined ? rest : { ...rest, location };
}

/** Validates a channel's secret, or list of secrets (rotation). */
export function checkSecret(secret: unknown): string | readonly string[] {
  const secrets = Array.isArray(secret) ? secret : [secret];
  const valid = secrets.length > 0 && secrets.every((s) => secretProblem(s) === undefined);
  if (!valid) {
    const rule = `must be a string of at least ${MIN_SECRET_LENGTH} characters (or a non-empty list of them)`;
    throwIfIssues([issue('secret', 'invalid', rule)]);
  }
  return secret as string | readonly string[];
}
