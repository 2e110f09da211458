/**
 * Delivery bodies of exact byte sizes: a real alert payload (spec 2.4) with as many findings as
 * fit, then the `rule` name padded so the UTF-8 size is exact. A few non-ASCII characters keep
 * the string path honest (UTF-8 encoding is part of hashing a string).
 */

/** The body sizes of the verify benchmark, in bytes. */
export const BODY_SIZES = [
  { label: '256 B', bytes: 256 },
  { label: '2 KB', bytes: 2 * 1024 },
  { label: '64 KB', bytes: 64 * 1024 },
  { label: '1 MB', bytes: 1024 * 1024 },
] as const;

function finding(index: number) {
  return {
    kind: 'csp-violation:new-type',
    key: `script-src-elem\nhttps://cdn${index}.example.net`,
    effectiveDirective: 'script-src-elem',
    blockedUrlOrigin: `https://cdn${index}.example.net`,
    firstSeen: '2026-01-02T03:04:05.678Z',
    count: index + 1,
  };
}

/** A JSON alert body of exactly `bytes` UTF-8 bytes. */
export function alertBody(bytes: number): string {
  const alert = {
    id: 'a1',
    eventType: 'csp-violation:new-type',
    rule: '',
    website: { id: 'w1', name: 'Café', url: 'https://a.example' },
    findings: [] as ReturnType<typeof finding>[],
    findingsCount: 0,
    window: { start: '2026-01-02', end: '2026-01-03' },
    dashboardUrl: 'https://d.example',
  };
  let size = Buffer.byteLength(JSON.stringify(alert));
  if (size > bytes) throw new Error(`an alert needs at least ${size} bytes`);
  for (let index = 0; ; index += 1) {
    const next = finding(index);
    const extra = Buffer.byteLength(JSON.stringify(next)) + (index === 0 ? 0 : 1);
    if (size + extra + 8 > bytes) break; // room for findingsCount growing a few digits
    alert.findings.push(next);
    size += extra;
  }
  alert.findingsCount = alert.findings.length;
  size = Buffer.byteLength(JSON.stringify(alert));
  alert.rule = 'r'.repeat(bytes - size);
  const body = JSON.stringify(alert);
  if (Buffer.byteLength(body) !== bytes)
    throw new Error(`body is ${Buffer.byteLength(body)} B, not ${bytes}`);
  return body;
}
