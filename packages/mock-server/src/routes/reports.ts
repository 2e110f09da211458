import { problem } from '../problem';
import { isJsonContentType, readBody } from '../request-body';
import type { RouteHandler } from './context';

/**
 * `POST /reports/{endpointId}`: the provisioned `endpointUrl` of a website. Accepts a JSON
 * report body (`application/reports+json`, `application/csp-report` or `application/json`,
 * at most 1 MB) with `204`, so a browser pointed at the mock does not error. Reports are
 * not stored: collection is outside the documented API.
 */
export const receiveReports: RouteHandler = async (request, [endpointId], { store }) => {
  if (!store.hasReportEndpoint(endpointId!)) {
    return problem({
      status: 404,
      code: 'endpoint_not_found',
      detail: 'No website has this report endpoint.',
    });
  }
  const type = request.headers.get('content-type');
  if (
    !isJsonContentType(type) &&
    type?.split(';')[0]?.trim().toLowerCase() !== 'application/csp-report'
  ) {
    return problem({
      status: 415,
      code: 'unsupported_media_type',
      detail: 'Send reports as application/reports+json or application/csp-report.',
    });
  }
  const body = await readBody(request);
  if (!body.ok) return body.response;
  try {
    JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(body.bytes));
  } catch {
    return problem({
      status: 400,
      code: 'malformed_json',
      detail: 'The report body is not valid JSON.',
    });
  }
  return new Response(null, { status: 204 });
};
