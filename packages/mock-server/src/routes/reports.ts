import { readViolations } from '../alerts/csp-reports';
import { problem, validationProblem } from '../http/problem';
import { isJsonContentType, readJson } from '../http/request-body';
import type { RouteHandler } from './context';

/** Which report format a content type announces, or `undefined` for one that is not accepted. */
function reportFormat(contentType: string | null): 'reports' | 'csp-report' | 'json' | undefined {
  const essence = contentType?.split(';')[0]?.trim().toLowerCase();
  if (essence === 'application/csp-report') return 'csp-report';
  if (essence === 'application/reports+json') return 'reports';
  return isJsonContentType(contentType) ? 'json' : undefined;
}

/**
 * `POST /reports/{endpointId}`: the provisioned `endpointUrl` of a website. Reads CSP
 * violations in the Reporting API format (`application/reports+json`) or the older
 * `application/csp-report`, at most 1 MB, answers `204`, and hands them to the alert flow:
 * a new directive + origin pair raises a `csp-violation:new-type` alert per alert rule.
 */
export const receiveReports: RouteHandler = async (request, [endpointId], { store, alerts }) => {
  const website = store.websiteByEndpoint(endpointId!);
  if (!website) {
    return problem({
      status: 404,
      code: 'endpoint_not_found',
      detail:
        'No website has this report endpoint; use the endpointUrl the website was created with.',
    });
  }
  const format = reportFormat(request.headers.get('content-type'));
  if (!format) {
    return problem({
      status: 415,
      code: 'unsupported_media_type',
      detail: 'Send reports as application/reports+json or application/csp-report.',
    });
  }
  const body = await readJson(request, { acceptContentType: () => true });
  if (!body.ok) return body.response;
  const read = readViolations(format, body.value);
  if (!read.ok) return validationProblem(read.errors);
  alerts.receive(website, read.violations);
  return new Response(null, { status: 204 });
};
