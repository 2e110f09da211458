/**
 * The committed OpenAPI document (`packages/client/openapi.json`), for code that serves it,
 * such as the mock server's `GET /openapi.json`. A test keeps the file equal to what the
 * schemas generate.
 *
 * @packageDocumentation
 */
import document from '../../client/openapi.json' with { type: 'json' };

/** The OpenAPI 3.1 document of the cspwatch API, as committed. */
export const openApiDocument: Readonly<Record<string, unknown>> = document;
