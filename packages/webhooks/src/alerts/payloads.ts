import { WebhookVerificationError } from '../errors';

/** The website an alert is about. */
export interface AlertWebsite {
  /** Website identifier. */
  id: string;
  /** Display name of the website. */
  name: string;
  /** Address of the site. */
  url: string;
}

/** The time window an alert covers: ISO 8601 UTC date-times with milliseconds. */
export interface AlertWindow {
  /** Start of the window, e.g. `2025-01-01T10:00:00.000Z`. */
  start: string;
  /** End of the window, e.g. `2025-01-01T10:05:00.000Z`. */
  end: string;
}

/**
 * The JSON body of every alert delivery; the shape of `findings` depends on `eventType`.
 *
 * @typeParam TEventType - the `eventType` string
 * @typeParam TFinding - the element type of `findings`
 */
export interface CspwatchAlert<TEventType extends string, TFinding> {
  /** Delivery/alert identifier (UUID-shaped). */
  id: string;
  /** What happened, e.g. `csp-violation:new-type`. */
  eventType: TEventType;
  /** Name of the rule that fired. */
  rule: string;
  /** The website the alert is about. */
  website: AlertWebsite;
  /** What was found; each element's `kind` equals the event kind. */
  findings: TFinding[];
  /** Number of findings. */
  findingsCount: number;
  /** The time window the alert covers. */
  window: AlertWindow;
  /** Link into the cspwatch dashboard. */
  dashboardUrl: string;
}

/** One new kind of CSP violation: a directive and blocked origin not seen before. */
export interface CspViolationNewTypeFinding {
  /** Always `csp-violation:new-type`. */
  kind: 'csp-violation:new-type';
  /** Effective directive and blocked origin joined by a newline. */
  key: string;
  /** The violated directive, e.g. `script-src-elem`. */
  effectiveDirective: string;
  /** Origin of the blocked resource, e.g. `https://cdn.example.net`. */
  blockedUrlOrigin: string;
  /** When this kind was first seen (ISO 8601 date-time). */
  firstSeen: string;
  /** How many reports of this kind arrived in the window. */
  count: number;
}

/** Alert sent when new kinds of CSP violations appear (`eventType: 'csp-violation:new-type'`). */
export type CspViolationNewTypeEvent = CspwatchAlert<
  'csp-violation:new-type',
  CspViolationNewTypeFinding
>;

/**
 * Any other alert: an `eventType` this version does not know yet. It is returned, never
 * rejected, so new event types do not break receivers; its findings are `unknown`.
 */
export type UnknownCspwatchEvent = CspwatchAlert<string, unknown>;

/**
 * A verified delivery's payload. Narrow it with {@link isCspViolationNewTypeEvent}, in an
 * `if` or in `switch (true) { case isCspViolationNewTypeEvent(event): … }`. A plain
 * `event.eventType === 'csp-violation:new-type'` does not narrow: the open-ended
 * {@link UnknownCspwatchEvent} has `eventType: string`, which admits that literal too.
 */
export type CspwatchEvent = CspViolationNewTypeEvent | UnknownCspwatchEvent;

/**
 * Narrows a verified event to a `csp-violation:new-type` alert with typed findings.
 *
 * @example
 * ```ts
 * const event = await verifyWebhook({ body, headers, secret });
 * if (isCspViolationNewTypeEvent(event)) {
 *   for (const finding of event.findings) console.log(finding.effectiveDirective);
 * }
 * ```
 */
export function isCspViolationNewTypeEvent(
  event: CspwatchEvent,
): event is CspViolationNewTypeEvent {
  return event.eventType === 'csp-violation:new-type';
}

/**
 * Parses a verified body. It must be a JSON object with a string `eventType`; anything
 * else is `invalid_json`. Fields are not checked further: the signature vouches for them.
 */
export function parsePayload(text: string): CspwatchEvent {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw invalidJson(error);
  }
  if (
    typeof value !== 'object' ||
    value === null ||
    typeof (value as { eventType?: unknown }).eventType !== 'string'
  ) {
    throw invalidJson();
  }
  return value as CspwatchEvent;
}

/** The signature was valid but the body is not a JSON alert object. */
export function invalidJson(cause?: unknown): WebhookVerificationError {
  return new WebhookVerificationError(
    'invalid_json',
    'Signature valid, but the body is not a JSON alert object',
    { cause },
  );
}
