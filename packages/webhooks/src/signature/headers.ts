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
 * Reads one header case-insensitively; `name` must be in lowercase. Returns `undefined` when the header is absent,
 * empty, or not text. A header given more than once (under two letter cases, or as an
 * array of several values, empty or not) comes back joined with `", "`, as Fetch joins
 * it, so a duplicated signature or timestamp is reported as malformed, never guessed at.
 */
export function readHeader(headers: unknown, name: string): string | undefined {
  if (typeof headers !== 'object' || headers === null) return undefined;
  const getter = (headers as { get?: unknown }).get;
  // Fetch Headers joins a repeated header itself; its get throws for an invalid name.
  if (typeof getter === 'function') {
    try {
      return asHeaderText(getter.call(headers, name));
    } catch {
      return undefined;
    }
  }
  const record = headers as Record<string, unknown>;
  // Every key is looked at: a second spelling of the name must not go unseen.
  const found: unknown[] = [];
  for (const key in record) {
    const value = record[key];
    if (value !== undefined && key.toLowerCase() === name && Object.hasOwn(record, key)) {
      found.push(value);
    }
  }
  return asHeaderText(found.length > 1 ? found : found[0]);
}

function asHeaderText(value: unknown): string | undefined {
  if (Array.isArray(value)) {
    // One value is that value; several (even empty or non-text ones) are a duplicate: the
    // separator Fetch would join them with stands for them, never a valid value (joining
    // them here would call a non-text value's toString, which may throw).
    return value.length > 1 ? ', ' : asHeaderText(value[0]);
  }
  return typeof value === 'string' && value !== '' ? value : undefined;
}
