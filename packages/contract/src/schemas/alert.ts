import * as z from 'zod/mini';
import { DateTimeSchema, integer } from './text-rules';

/*
 * The alert payload for `eventType` `csp-violation:new-type`, as the service (and the reference
 * sender) sends it; published as `alert.schema.json` (docs/api-contract.md).
 */

/** The only `eventType` the spec shows. */
export const NEW_TYPE_EVENT = 'csp-violation:new-type';

const UUID_SHAPE = /^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}$/;
/** A UTC date-time with exactly three fraction digits, as `Date#toISOString` writes it. */
const MILLISECOND_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const windowEdge = () => z.string().check(z.regex(MILLISECOND_DATE_TIME));

/** One new kind of CSP violation: a directive and blocked origin not seen before. */
export const NewTypeFindingSchema = z.strictObject({
  kind: z.literal(NEW_TYPE_EVENT),
  key: z.string(),
  effectiveDirective: z.string().check(z.minLength(1)),
  blockedUrlOrigin: z.string().check(z.minLength(1)),
  firstSeen: DateTimeSchema,
  count: integer().check(z.minimum(1)),
});

/** The website an alert is about. */
export const AlertWebsiteSchema = z.strictObject({
  id: z.string(),
  name: z.string(),
  url: z.string(),
});

/** The time window an alert covers. */
export const AlertWindowSchema = z.strictObject({ start: windowEdge(), end: windowEdge() });

/** The JSON body of a `csp-violation:new-type` alert delivery. */
export const AlertSchema = z.strictObject({
  id: z.string().check(z.regex(UUID_SHAPE)),
  eventType: z.literal(NEW_TYPE_EVENT),
  rule: z.string(),
  website: AlertWebsiteSchema,
  findings: z.array(NewTypeFindingSchema).check(z.minLength(1)),
  findingsCount: integer().check(z.minimum(1)),
  window: AlertWindowSchema,
  dashboardUrl: z.string(),
});
