/**
 * The service's alert flow: a report that shows a new effective-directive + blocked-origin
 * pair for a website raises one `csp-violation:new-type` alert per alert rule of the website,
 * built by `buildAlert` and delivered, signed, by the sender to each channel of the rule.
 * Deliveries run in the background (a browser's report never waits on a customer's
 * webhook); each alert and its delivery results are kept in a log, newest first.
 */
import { buildAlert, type DeliveryResult } from '@cspwatch/webhook-sender';
import type { CspViolationNewTypeEvent } from '@cspwatch/webhooks';
import type { MockWebsite } from '../store/resources';
import type { Violation } from './csp-reports';
import type { WebhookChannels } from './webhook-channels';

/** An alert rule: deliver the new-type alerts of one website to some channels. */
export interface MockAlertRule {
  /** Rule id. */
  id: string;
  /** Rule name, sent as the alert's `rule`. */
  name: string;
  /** The website whose reports the rule watches. */
  websiteId: string;
  /** The webhook channels the rule delivers to. */
  channelIds: string[];
}

/** One alert the mock raised, and what each delivery of it gave (filled in as they finish). */
export interface MockAlertRecord {
  /** The payload, exactly as signed and sent. */
  alert: CspViolationNewTypeEvent;
  /** One result per distinct channel of the rule, in the rule's order, once delivered. */
  deliveries: DeliveryResult[];
}

const MAX_LOG = 500;

/** Seen pairs per website, the rules, the alert log and the deliveries in flight. */
export class AlertFlow {
  readonly #channels: WebhookChannels;
  readonly #baseUrl: string;
  readonly #onChange: () => void;
  readonly #seen = new Map<string, Set<string>>();
  readonly #pending = new Set<Promise<void>>();
  rules: MockAlertRule[] = [];
  log: MockAlertRecord[] = [];

  /** `onChange` runs after every alert raised and every delivery finished. */
  constructor(channels: WebhookChannels, baseUrl: string, onChange: () => void) {
    this.#channels = channels;
    this.#baseUrl = baseUrl;
    this.#onChange = onChange;
  }

  /** Forgets seen pairs, rules and the log (deliveries in flight finish unrecorded). */
  clear(): void {
    this.#seen.clear();
    this.rules = [];
    this.log = [];
  }

  /** Resolves when every delivery started so far has finished. */
  async idle(): Promise<void> {
    while (this.#pending.size > 0) await Promise.all([...this.#pending]);
  }

  /** Detects new pairs among `violations`; raises and starts delivering alerts. Returns how many were raised. */
  receive(website: MockWebsite, violations: readonly Violation[]): number {
    const now = Date.now();
    const seen = this.#seen.get(website.id) ?? new Set<string>();
    this.#seen.set(website.id, seen);
    const fresh = new Map<
      string,
      { directive: string; origin: string; firstSeen: number; count: number }
    >();
    for (const { effectiveDirective, blockedUrlOrigin, ageMs } of violations) {
      if (blockedUrlOrigin === null) continue;
      const key = `${effectiveDirective}\n${blockedUrlOrigin}`;
      if (seen.has(key)) continue;
      const found = fresh.get(key);
      if (found) {
        found.count++;
        found.firstSeen = Math.min(found.firstSeen, now - ageMs);
      } else {
        fresh.set(key, {
          directive: effectiveDirective,
          origin: blockedUrlOrigin,
          firstSeen: now - ageMs,
          count: 1,
        });
      }
    }
    for (const key of fresh.keys()) seen.add(key);
    if (fresh.size === 0) return 0;
    const findings = [...fresh.values()].map((pair) => ({
      effectiveDirective: pair.directive,
      blockedUrlOrigin: pair.origin,
      firstSeen: pair.firstSeen,
      count: pair.count,
    }));
    const start = Math.min(...findings.map((finding) => finding.firstSeen));
    const rules = this.rules.filter((rule) => rule.websiteId === website.id);
    for (const rule of rules) {
      const alert = buildAlert({
        rule: rule.name,
        // The website's name as is; buildAlert refuses a blank one, which a scenario may seed.
        website: {
          id: website.id,
          name: website.name.trim() === '' ? website.id : website.name,
          url: website.url,
        },
        findings,
        window: { start, end: now },
        dashboardUrl: `${this.#baseUrl}/_mock/?website=${encodeURIComponent(website.id)}`,
      });
      this.#deliver(alert, rule.channelIds);
    }
    return rules.length;
  }

  #deliver(alert: CspViolationNewTypeEvent, channelIds: readonly string[]): void {
    const record: MockAlertRecord = { alert, deliveries: [] };
    this.log.unshift(record);
    this.log.length = Math.min(this.log.length, MAX_LOG);
    this.#onChange();
    const { sender } = this.#channels;
    const run = (async () => {
      // One POST per alert per channel (spec 6), even when a rule names a channel twice.
      for (const channelId of new Set(channelIds)) {
        const channel = this.#channels.get(channelId);
        if (!channel) continue;
        record.deliveries.push(await sender.deliver(channel, alert));
        this.#onChange();
      }
    })().catch(() => {});
    this.#pending.add(run);
    void run.finally(() => this.#pending.delete(run));
  }
}
