/**
 * Field checks of `buildAlert` input: dates, URLs, origins, directives. Each records issues
 * and returns the normalised value.
 */
import type { ValidationIssue } from '../errors';

/** An instant given as a `Date`, Unix milliseconds, or an ISO 8601 string with a zone. */
export type InstantInput = Date | number | string;

const ISO_WITH_ZONE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/i;
const DIRECTIVE = /^[a-z][a-z0-9-]*$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Values browsers report instead of a URL for inline code and similar (CSP3 `blockedURL`). */
const CSP_KEYWORDS = new Set([
  'inline',
  'eval',
  'wasm-eval',
  'trusted-types-policy',
  'trusted-types-sink',
]);

/** Collects issues for one `buildAlert` call. */
export class AlertIssues {
  /** Issues found so far. */
  readonly list: ValidationIssue[] = [];

  /** Records an issue. */
  add(path: string, code: string, message: string): void {
    this.list.push({ path, code, message });
  }

  /** A non-empty string, or an issue. */
  text(path: string, value: unknown): string {
    if (typeof value === 'string' && value.trim() !== '') return value;
    this.add(path, 'required', 'must be a non-empty string');
    return '';
  }

  /** An absolute http(s) URL, or an issue. */
  url(path: string, value: unknown): string {
    const text = this.text(path, value);
    if (text !== '' && !URL.canParse(text))
      this.add(path, 'invalid_url', 'must be an absolute URL');
    else if (text !== '' && !/^https?:$/.test(new URL(text).protocol)) {
      this.add(path, 'invalid_url', 'must be an http or https URL');
    }
    return text;
  }

  /** An instant as ISO 8601 UTC with milliseconds, or an issue. */
  instant(path: string, value: unknown): string {
    const ok =
      value instanceof Date ||
      typeof value === 'number' ||
      (typeof value === 'string' && ISO_WITH_ZONE.test(value));
    const time = ok ? new Date(value as InstantInput).getTime() : Number.NaN;
    if (Number.isFinite(time)) return new Date(time).toISOString();
    this.add(
      path,
      'invalid_date',
      'must be a Date, Unix milliseconds or ISO 8601 with a time zone',
    );
    return '';
  }

  /** A lowercase CSP directive name, or an issue. */
  directive(path: string, value: unknown): string {
    if (typeof value === 'string' && DIRECTIVE.test(value)) return value;
    this.add(
      path,
      'invalid_directive',
      'must be a lowercase CSP directive name such as script-src',
    );
    return '';
  }

  /** A serialised origin (or a CSP keyword such as `inline`), or an issue. */
  origin(path: string, value: unknown): string {
    if (typeof value === 'string' && CSP_KEYWORDS.has(value)) return value;
    if (typeof value === 'string' && URL.canParse(value) && new URL(value).origin === value) {
      return value;
    }
    this.add(
      path,
      'invalid_origin',
      'must be an origin like https://cdn.example.com (no path, no trailing slash)',
    );
    return '';
  }

  /** A positive integer, or an issue. */
  count(path: string, value: unknown): number {
    if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 1) return value;
    this.add(path, 'invalid_count', 'must be an integer >= 1');
    return 0;
  }

  /** A UUID, or an issue. */
  uuid(path: string, value: unknown): string {
    if (typeof value === 'string' && UUID.test(value)) return value.toLowerCase();
    this.add(path, 'invalid_id', 'must be a UUID');
    return '';
  }
}
