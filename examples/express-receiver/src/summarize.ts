import { type CspwatchEvent, isCspViolationNewTypeEvent } from '@cspwatch/webhooks';

/** One log line describing a verified alert. */
export function summarizeAlert(event: CspwatchEvent): string {
  const head = `alert ${event.id} ${event.eventType} "${event.rule}" on ${event.website.name}`;
  if (!isCspViolationNewTypeEvent(event)) return `${head}: ${event.findingsCount} findings`;
  const findings = event.findings
    .map((finding) => `${finding.effectiveDirective} ${finding.blockedUrlOrigin} ×${finding.count}`)
    .join(', ');
  return `${head}: ${findings}`;
}
