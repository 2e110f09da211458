/**
 * Reads the two formats browsers send CSP violations in: the Reporting API
 * (`application/reports+json`, an array of `{ type, age, url, body }` with camelCase body
 * fields) and the older `report-uri` format (`application/csp-report`, one
 * `{ "csp-report": { … } }` with kebab-case fields). Each is reduced to what the alert
 * detector needs: the effective directive and the blocked origin.
 */
import type { ProblemFieldError } from '../http/problem';

/** One CSP violation, reduced to the detector's key. */
export interface Violation {
  /** Effective directive, e.g. `script-src-elem`. */
  effectiveDirective: string;
  /** Origin of the blocked URL, or a CSP keyword such as `inline`; `null` when there is none (e.g. `data:`). */
  blockedUrlOrigin: string | null;
  /** How long ago the browser saw it, in ms (the Reporting API's `age`; 0 for the legacy format). */
  ageMs: number;
}

/** Most reports accepted in one request. */
export const MAX_REPORTS_PER_REQUEST = 100;

const KEYWORDS = new Set([
  'inline',
  'eval',
  'wasm-eval',
  'trusted-types-policy',
  'trusted-types-sink',
]);
const DIRECTIVE = /^[a-z][a-z0-9-]{0,63}$/;

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The origin part of a blocked URL as the detector keys it. */
export function blockedOrigin(blocked: string): string | null {
  if (KEYWORDS.has(blocked)) return blocked;
  if (!URL.canParse(blocked)) return null;
  const { origin } = new URL(blocked);
  return origin === 'null' ? null : origin;
}

function violation(
  directive: unknown,
  blocked: unknown,
  ageMs: number,
  path: string,
  errors: ProblemFieldError[],
): Violation | undefined {
  if (typeof directive !== 'string' || !DIRECTIVE.test(directive)) {
    errors.push({ path, message: 'Required: a lowercase directive name such as script-src-elem.' });
    return undefined;
  }
  if (blocked !== undefined && typeof blocked !== 'string') {
    errors.push({ path, message: 'The blocked URL must be a string.' });
    return undefined;
  }
  return { effectiveDirective: directive, blockedUrlOrigin: blockedOrigin(blocked ?? ''), ageMs };
}

/** Reads a Reporting API body; reports of other types than `csp-violation` are skipped. */
function readReportingApi(body: unknown, errors: ProblemFieldError[]): Violation[] {
  if (!Array.isArray(body)) {
    errors.push({
      path: '(body)',
      message: 'Send a JSON array of reports (Reporting API format).',
    });
    return [];
  }
  if (body.length > MAX_REPORTS_PER_REQUEST) {
    errors.push({ path: '(body)', message: `Send at most ${MAX_REPORTS_PER_REQUEST} reports.` });
    return [];
  }
  const found: Violation[] = [];
  body.forEach((report, index) => {
    if (!isObject(report) || typeof report.type !== 'string' || !isObject(report.body)) {
      errors.push({
        path: `${index}`,
        message: 'Each report is an object with a string type and an object body.',
      });
      return;
    }
    if (report.type !== 'csp-violation') return;
    const age =
      typeof report.age === 'number' && report.age >= 0 ? Math.min(report.age, 86_400_000) : 0;
    const path = `${index}.body.effectiveDirective`;
    const read = violation(
      report.body.effectiveDirective,
      report.body.blockedURL,
      age,
      path,
      errors,
    );
    if (read) found.push(read);
  });
  return found;
}

/** Reads a legacy `report-uri` body; `effective-directive` falls back to the first word of `violated-directive`. */
function readLegacy(body: unknown, errors: ProblemFieldError[]): Violation[] {
  const report = isObject(body) ? body['csp-report'] : undefined;
  if (!isObject(report)) {
    errors.push({
      path: 'csp-report',
      message: 'Send {"csp-report": {...}} (the report-uri format).',
    });
    return [];
  }
  const violated = report['violated-directive'];
  const directive =
    report['effective-directive'] ??
    (typeof violated === 'string' ? violated.split(' ')[0] : undefined);
  const read = violation(
    directive,
    report['blocked-uri'],
    0,
    'csp-report.effective-directive',
    errors,
  );
  return read ? [read] : [];
}

/**
 * Reads the violations of a report body by its content type, listing every problem.
 * `application/json` is read by shape (an array is the Reporting API format).
 */
export function readViolations(
  contentType: 'reports' | 'csp-report' | 'json',
  body: unknown,
): { ok: true; violations: Violation[] } | { ok: false; errors: ProblemFieldError[] } {
  const errors: ProblemFieldError[] = [];
  const legacy = contentType === 'csp-report' || (contentType === 'json' && !Array.isArray(body));
  const violations = legacy ? readLegacy(body, errors) : readReportingApi(body, errors);
  return errors.length > 0 ? { ok: false, errors } : { ok: true, violations };
}
