import { openApiDocument } from '@cspwatch/contract/document';
import { json } from '../http/problem';
import type { RouteHandler } from './context';

/** `GET /openapi.json`: the OpenAPI 3.1 document of the API this mock serves (the committed file). */
export const serveOpenApi: RouteHandler = async () =>
  json(openApiDocument, 200, { 'cache-control': 'no-cache' });
