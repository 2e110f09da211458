/**
 * The field rules that more than one door of the mock checks: the options of
 * `createMockService`, the control API's bodies and the scenario. Each rule is written once
 * here, as zod, worded as every cspwatch package words its option errors.
 */
import { type IntegerBounds, integerRule, mustBe } from '@cspwatch/internal';
import { z } from 'zod';

/** An integer within `bounds`; every refusal reads `must be an integer from … to …, got …`. */
export function integer(bounds: IntegerBounds) {
  const error = (problem: { input?: unknown }) => mustBe(integerRule(bounds), problem.input);
  return z.int({ error }).min(bounds.min).max(bounds.max);
}

/** A share from 0 to 1, such as a fault rate. */
export const share = z
  .number({ error: (problem) => mustBe('a number from 0 to 1', problem.input) })
  .min(0)
  .max(1);

/** Websites a workspace's plan allows. */
export const websiteLimit = integer({ min: 0, max: 100_000 });

/** Lifetime of an issued user token, in seconds (up to a year). */
export const tokenTtlSeconds = integer({ min: 1, max: 31_536_000, unit: 's' });

/** An id the caller chooses: 1 to 64 letters, digits, `_` or `-`. */
export const resourceId = z
  .string()
  .regex(/^[A-Za-z0-9_-]{1,64}$/, 'Must be 1 to 64 letters, digits, _ or -.');

/** An alert rule's name, sent as the alert's `rule`. */
export const alertRuleName = z.string().max(255).regex(/\S/, 'Must not be blank.');
