import document from '../../openapi.json' with { type: 'json' };
import { json } from '../http/problem';
import type { RouteHandler } from '../routes/context';

/**
 * `GET /_mock/openapi.json`: the OpenAPI 3.1 document of the mock's own surface (control API,
 * trigger, inbox, report intake), as committed; a test keeps the file equal to what the zod
 * schemas generate.
 */
export const serveMockOpenApi: RouteHandler = async () =>
  json(document, 200, { 'cache-control': 'no-cache' });
