/**
 * Routes one request: the control API under `/_mock/` (behind its guard), the REST API
 * (behind fault injection), the report endpoints and the inbox; `404`/`405` otherwise.
 */
import { checkControlAccess } from './control/guard';
import { CONTROL_PREFIX, CONTROL_ROUTES } from './control/table';
import { problem } from './problem';
import type { RouteContext } from './routes/context';
import { matchRoute } from './routes/table';
import { recordRoute } from './telemetry/tracing';

/** Answers one request from the service state; throws only on a bug (the caller answers 500). */
export async function dispatch(
  request: Request,
  context: RouteContext,
  controlToken: string | undefined,
): Promise<Response> {
  const { pathname } = new URL(request.url);
  if (pathname === CONTROL_PREFIX && (request.method === 'GET' || request.method === 'HEAD')) {
    const { search } = new URL(request.url);
    return new Response(null, {
      status: 308,
      headers: { location: `${CONTROL_PREFIX}/${search}` },
    });
  }
  const isControl = pathname === CONTROL_PREFIX || pathname.startsWith(`${CONTROL_PREFIX}/`);
  if (isControl) {
    const denied = await checkControlAccess(request, controlToken);
    if (denied) return denied;
  }
  const matched = matchRoute(pathname, isControl ? CONTROL_ROUTES : undefined);
  if (!matched)
    return problem({
      status: 404,
      code: 'not_found',
      detail: `No route for ${request.method} ${pathname.slice(0, 200)}.`,
    });
  const { route, params } = matched;
  recordRoute(request, route.segments);
  const handler = route.methods[request.method];
  if (!handler) {
    const allow = Object.keys(route.methods).join(', ');
    return problem({
      status: 405,
      code: 'method_not_allowed',
      detail: `${request.method.slice(0, 20)} is not allowed here; use ${allow}.`,
      headers: { allow },
    });
  }
  if (route.rest) {
    const fault = await context.faults.apply(request);
    if (fault) return fault;
  }
  return handler(request, params, context);
}
