/**
 * Request headers in any of the shapes a server hands out: a Fetch `Headers`, Node's
 * `IncomingHttpHeaders` (values may be `string[]`), or a plain object with any casing.
 */
export type WebhookHeadersInput =
  | {
      /** Returns the header's value, or `null` when it is absent (Fetch `Headers.get`). */
      get(name: string): string | null;
    }
  | Readonly<Record<string, string | readonly string[] | undefined>>;

/**
 * Reads one header case-insensitively. Returns `undefined` when the header is absent,
 * empty, or not text. Several values (a `string[]`) are joined with `", "`, as Fetch does,
 * so a duplicated signature or timestamp header is reported as malformed, not guessed at.
 */
export function readHeader(headers: unknown, name: string): string | undefined {
  if (typeof headers !== 'object' || headers === null) return undefined;
  const lowerName = name.toLowerCase();
  const getter = (headers as { get?: unknown }).get;
  if (typeof getter === 'function') {
    let value: unknown;
    try {
      value = getter.call(headers, lowerName);
    } catch {
      return undefined;
    }
    return asHeaderText(value);
  }
  const record = headers as Record<string, unknown>;
  // Node lowercases incoming names, so the direct look-up almost always hits.
  if (Object.hasOwn(record, lowerName)) return asHeaderText(record[lowerName]);
  for (const key of Object.keys(record)) {
    if (key.toLowerCase() === lowerName) return asHeaderText(record[key]);
  }
  return undefined;
}

function asHeaderText(value: unknown): string | undefined {
  if (typeof value === 'string') return value === '' ? undefined : value;
  if (Array.isArray(value)) {
    const parts = value.filter((part): part is string => typeof part === 'string' && part !== '');
    return parts.length === 0 ? undefined : parts.join(', ');
  }
  return undefined;
}
