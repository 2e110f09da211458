/**
 * The triggers (`POST /_mock/trigger`) sent to receivers outside this mock, kept for the inbox
 * page: a trigger to one of the mock's own inbox channels already shows there as a delivery.
 */
import { redactUrls } from '@cspwatch/contract';
import type { DeliveryFailureCause } from '@cspwatch/webhook-sender';
import type { TriggerResult } from './trigger';

/** One trigger sent to an external receiver, as the inbox page lists it. */
export interface TriggerRecord {
  /** When the answer came (ISO 8601). */
  sentAt: string;
  /** The receiver's URL, its userinfo and query values redacted. */
  url: string;
  /** The `id` of the alert sent. */
  alertId: string;
  /** The alert's rule name. */
  rule: string;
  /** The receiver's status, or `null` when none arrived. */
  status: number | null;
  /** `true` when the receiver answered 2xx. */
  ok: boolean;
  /** The sender's failure cause, or `null` on success. */
  cause: DeliveryFailureCause | null;
}

const MAX_LOG = 500;

/** The external triggers, newest first. */
export class TriggerLog {
  readonly #baseUrl: string;
  readonly #onChange: () => void;
  /** Newest first, at most 500. */
  entries: TriggerRecord[] = [];

  /** `baseUrl` tells the mock's own inbox from external receivers; `onChange` runs after each change. */
  constructor(baseUrl: string, onChange: () => void) {
    this.#baseUrl = baseUrl;
    this.#onChange = onChange;
  }

  /** Records a trigger to `to`, unless `to` is one of this mock's inbox channels. */
  record(to: string, { alert, result }: TriggerResult): void {
    if (to.startsWith(`${this.#baseUrl}/inbox/`)) return;
    this.entries.unshift({
      sentAt: new Date().toISOString(),
      url: redactUrls(to),
      alertId: alert.id,
      rule: alert.rule,
      status: result.status,
      ok: result.ok,
      cause: result.cause,
    });
    this.entries.length = Math.min(this.entries.length, MAX_LOG);
    this.#onChange();
  }

  /** Forgets every record; returns how many there were. */
  clear(): number {
    const cleared = this.entries.length;
    this.entries = [];
    this.#onChange();
    return cleared;
  }
}
