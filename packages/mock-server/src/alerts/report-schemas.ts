/**
 * The two report formats the report intake (`POST /reports/{endpointId}`) reads, as zod
 * schemas for the mock's OpenAPI document. Open objects: browsers send more fields than the
 * detector reads. `csp-reports.ts` parses them field by field, to answer with one field
 * error per bad report.
 */
import { z } from 'zod';
import { MAX_REPORTS_PER_REQUEST } from './csp-reports';

/** `application/reports+json`: the Reporting API's array; reports of other types are skipped. */
export const ReportingApiBodySchema = z
  .array(
    z.object({
      type: z.string(),
      age: z.number().optional(),
      url: z.string().optional(),
      body: z.object({
        effectiveDirective: z.string().optional(),
        blockedURL: z.string().optional(),
      }),
    }),
  )
  .max(MAX_REPORTS_PER_REQUEST);

/** `application/csp-report`: the older `report-uri` format, one report with kebab-case fields. */
export const LegacyCspReportBodySchema = z.object({
  'csp-report': z.object({
    'effective-directive': z.string().optional(),
    'violated-directive': z.string().optional(),
    'blocked-uri': z.string().optional(),
  }),
});
