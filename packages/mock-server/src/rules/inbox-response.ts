/**
 * How an inbox channel answers verified deliveries, written once: `inbox.createChannel`,
 * `inbox.setResponse` and the control API (`POST /_mock/inbox/channels`,
 * `PUT /_mock/inbox/channels/{id}/response`) check with these rules.
 */
import { mustBe } from '@cspwatch/internal';
import { z } from 'zod';
import { integer } from './fields';

const LOCATION_RULE = 'must be an absolute URL without spaces or control characters';

/** Visible ASCII only: a control character would be a header injection, and node:http and the Headers class would each fail on it differently. */
const isHeaderSafeUrl = (value: string): boolean =>
  /^[\x21-\x7e]+$/.test(value) && URL.canParse(value);

/** How an inbox channel answers verified deliveries (`PUT /_mock/inbox/channels/{id}/response`). */
export const InboxResponseSchema = z.strictObject({
  status: integer({ min: 200, max: 599 }).default(200),
  location: z.string({ error: LOCATION_RULE }).refine(isHeaderSafeUrl, LOCATION_RULE).optional(),
  hang: z.boolean({ error: (problem) => mustBe('true or false', problem.input) }).default(false),
});
