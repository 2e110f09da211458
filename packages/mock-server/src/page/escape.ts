/**
 * HTML escaping for the inbox page: payloads and headers come from whoever posts to the
 * inbox, so every value is escaped before it reaches the markup, text and attributes alike.
 */
const ENTITIES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
  '`': '&#96;',
};

/** Escapes text for an HTML text node or a quoted attribute value. */
export function escapeHtml(value: unknown): string {
  return String(value).replace(/[&<>"'`]/g, (char) => ENTITIES[char]!);
}

/** A template tag that escapes every interpolated value unless it is already {@link Html}. */
export function html(strings: TemplateStringsArray, ...values: unknown[]): Html {
  let out = strings[0]!;
  values.forEach((value, index) => {
    out += renderValue(value) + strings[index + 1]!;
  });
  return new Html(out);
}

/** Markup that is already safe (built by {@link html}). */
export class Html {
  /** The markup. */
  readonly value: string;
  /** Wraps markup known to be safe. */
  constructor(value: string) {
    this.value = value;
  }
  /** The markup, so `String(html)` works. */
  toString(): string {
    return this.value;
  }
}

function renderValue(value: unknown): string {
  if (value instanceof Html) return value.value;
  if (Array.isArray(value)) return value.map(renderValue).join('');
  if (value === undefined || value === null || value === false) return '';
  return escapeHtml(value);
}
