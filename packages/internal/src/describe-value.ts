/**
 * Names what was given, for a message: a number is shown (it is never a secret), anything
 * else only by its type, so a misplaced secret or token is never printed.
 */
export function describeValue(value: unknown): string {
  if (typeof value === 'number') return String(value);
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'undefined') return 'undefined';
  return `a ${typeof value}`;
}
