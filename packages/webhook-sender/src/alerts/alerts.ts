/**
 * The alert payload for `csp-violation:new-type` (docs/api-contract.md): `buildAlert` fills the
 * derived fields (`id`, `key`, `findingsCount`, normalised dates) and refuses inconsistent
 * input. The sender serialises the result once and signs exactly the bytes it sends.
 */
import { randomUUID } from 'node:crypto';
import type { CspViolationNewTypeEvent, CspViolationNewTypeFinding } from '@cspwatch/webhooks';
import { WebhookSenderError } from '../errors';
import { AlertIssues, type InstantInput } from './alert-fields';

/** One new violation type, as the detector saw it. `kind` and `key` are derived. */
export interface NewTypeFindingInput {
  /** Effective directive, e.g. `script-src-elem`. */
  readonly effectiveDirective: string;
  /** Blocked origin, e.g. `https://cdn.example.net`, or a CSP keyword such as `inline`. */
  readonly blockedUrlOrigin: string;
  /** When this type was first seen; not after the window end. */
  readonly firstSeen: InstantInput;
  /** Reports of this type in the window, at least 1. */
  readonly count: number;
}

/** Input of {@link buildAlert}. */
export interface BuildAlertInput {
  /** Alert id. @default a random UUID */
  readonly id?: string;
  /** Name of the rule that fired. */
  readonly rule: string;
  /** The website the findings belong to. */
  readonly website: {
    /** Website identifier. */
    readonly id: string;
    /** Display name. */
    readonly name: string;
    /** Address of the site (absolute http(s) URL). */
    readonly url: string;
  };
  /** The findings, at least one, each with a distinct directive/origin pair. */
  readonly findings: readonly NewTypeFindingInput[];
  /** The time window the alert covers; `start` not after `end`. */
  readonly window: {
    /** Start of the window. */
    readonly start: InstantInput;
    /** End of the window. */
    readonly end: InstantInput;
  };
  /** Link into the dashboard (absolute http(s) URL). */
  readonly dashboardUrl: string;
}

const EVENT_TYPE = 'csp-violation:new-type';

function buildFindings(input: BuildAlertInput, issues: AlertIssues, windowEnd: string) {
  if (!Array.isArray(input.findings) || input.findings.length === 0) {
    issues.add('findings', 'findings_empty', 'must be a non-empty array');
    return [];
  }
  const keys = new Set<string>();
  return input.findings.map((finding: NewTypeFindingInput, index): CspViolationNewTypeFinding => {
    const path = `findings.${index}`;
    const effectiveDirective = issues.directive(
      `${path}.effectiveDirective`,
      finding?.effectiveDirective,
    );
    const blockedUrlOrigin = issues.origin(`${path}.blockedUrlOrigin`, finding?.blockedUrlOrigin);
    const firstSeen = issues.instant(`${path}.firstSeen`, finding?.firstSeen);
    const count = issues.count(`${path}.count`, finding?.count);
    const key = `${effectiveDirective}\n${blockedUrlOrigin}`;
    if (effectiveDirective && blockedUrlOrigin && keys.has(key)) {
      issues.add(path, 'duplicate_finding', 'two findings have the same directive and origin');
    }
    keys.add(key);
    if (firstSeen && windowEnd && Date.parse(firstSeen) > Date.parse(windowEnd)) {
      issues.add(`${path}.firstSeen`, 'after_window', 'is after window.end');
    }
    return { kind: EVENT_TYPE, key, effectiveDirective, blockedUrlOrigin, firstSeen, count };
  });
}

/**
 * Builds a `csp-violation:new-type` alert; throws `WebhookSenderError` `invalid_alert` listing
 * every problem (missing fields, bad dates, window start after end, duplicate findings, …).
 *
 * @example
 * ```ts
 * const alert = buildAlert({
 *   rule: 'New violation types',
 *   website: { id: 'ws_1', name: 'Shop', url: 'https://shop.example.com' },
 *   findings: [{ effectiveDirective: 'script-src-elem', blockedUrlOrigin: 'https://cdn.example.net', firstSeen: new Date(), count: 3 }],
 *   window: { start: Date.now() - 60_000, end: Date.now() },
 *   dashboardUrl: 'https://app.cspwatch.example/ws_1/alerts',
 * });
 * ```
 */
export function buildAlert(input: BuildAlertInput): CspViolationNewTypeEvent {
  if (typeof input !== 'object' || input === null) {
    throw new WebhookSenderError('invalid_alert', [
      { path: '(input)', code: 'not_an_object', message: 'must be an object' },
    ]);
  }
  const issues = new AlertIssues();
  const id = input.id === undefined ? randomUUID() : issues.uuid('id', input.id);
  const rule = issues.text('rule', input.rule);
  const website = {
    id: issues.text('website.id', input.website?.id),
    name: issues.text('website.name', input.website?.name),
    url: issues.url('website.url', input.website?.url),
  };
  const start = issues.instant('window.start', input.window?.start);
  const end = issues.instant('window.end', input.window?.end);
  if (start && end && Date.parse(start) > Date.parse(end))
    issues.add('window', 'window_reversed', 'start is after end');
  const findings = buildFindings(input, issues, end);
  const dashboardUrl = issues.url('dashboardUrl', input.dashboardUrl);
  if (issues.list.length > 0) throw new WebhookSenderError('invalid_alert', issues.list);
  return {
    id,
    eventType: EVENT_TYPE,
    rule,
    website,
    findings,
    findingsCount: findings.length,
    window: { start, end },
    dashboardUrl,
  };
}
