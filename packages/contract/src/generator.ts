/**
 * The pieces that turn the contract's schemas into documents, for another package's generator
 * (the mock server writes its own OpenAPI document with them): the service's document, one
 * error response, the shared component schemas and the stable JSON every generated file uses.
 *
 * @packageDocumentation
 */

export { type GeneratedFile, stableJson } from './generated-files';
export { componentSchemas, type JsonSchema } from './json-schemas';
export { buildOpenApiDocument, errorResponse } from './openapi';
export type { ErrorResponse } from './operations';
