/**
 * Names what was given, for a message: a number is shown (it is never a secret), anything
 * else only by its type, so a misplaced secret or token is never printed.
 */
export function describeValue(value: unknown): string {
  if (typeof value === 'number' || value == null) return String(value);
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}
