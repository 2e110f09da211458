import * as z from 'zod/mini';
import { dateTime } from './text-rules';

/*
 * The alert payload of spec section 2.4 for `eventType` `csp-violation:new-type`, as the
 * service (and the reference sender) sends it.
 */

/** The only `eventType` the spec shows. */
export const NEW_TYPE_EVENT = 'csp-violation:new-type';

const UUID_SHAPE = /^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}$/;
/** A UTC date-time with exactly three fraction digits, as `Date#toISOString` writes it. */
const millisecondDateTime = () => z.iso.datetime({ precision: 3 });

/** One new kind of CSP violation: a directive and blocked origin not seen before. */
export const NewTypeFindingSchema = z.strictObject({
  kind: z.literal(NEW_TYPE_EVENT),
  key: z
    .string()
    .check(z.meta({ description: 'Effective directive and blocked origin joined by a newline.' })),
  effectiveDirective: z
    .string()
    .check(z.minLength(1), z.meta({ description: 'e.g. `script-src-elem`.' })),
  blockedUrlOrigin: z
    .string()
    .check(
      z.minLength(1),
      z.meta({ description: 'Origin of the blocked resource, or a CSP keyword such as `inline`.' }),
    ),
  firstSeen: dateTime(),
  count: z
    .int()
    .check(z.minimum(1), z.meta({ description: 'Reports of this kind in the window.' })),
});

/** The website an alert is about. */
export const AlertWebsiteSchema = z.strictObject({
  id: z.string(),
  name: z.string(),
  url: z.string().check(z.meta({ format: 'uri' })),
});

/** The time window an alert covers. */
export const AlertWindowSchema = z.strictObject({
  start: millisecondDateTime(),
  end: millisecondDateTime(),
});

/** The JSON body of a `csp-violation:new-type` alert delivery. */
export const AlertSchema = z.strictObject({
  id: z.string().check(
    z.regex(UUID_SHAPE),
    z.meta({
      description: 'Delivery/alert identifier (UUID-shaped); use it to drop duplicates.',
    }),
  ),
  eventType: z.literal(NEW_TYPE_EVENT),
  rule: z.string().check(z.meta({ description: 'Name of the rule that fired.' })),
  website: AlertWebsiteSchema,
  findings: z
    .array(NewTypeFindingSchema)
    .check(
      z.minLength(1),
      z.meta({ description: "What was found; each element's `kind` equals `eventType`." }),
    ),
  findingsCount: z
    .int()
    .check(z.minimum(1), z.meta({ description: 'Number of findings (equals `findings.length`).' })),
  window: AlertWindowSchema,
  dashboardUrl: z
    .string()
    .check(z.meta({ description: 'Link into the dashboard.', format: 'uri' })),
});
