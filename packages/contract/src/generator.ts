/**
 * The pieces that turn the contract's schemas into documents, for another package's generator
 * (the mock server writes its own OpenAPI document with them): the service's document, one
 * error response, the shared component schemas and the stable JSON every generated file uses.
 *
 * @packageDocumentation
 */

export {
  buildOpenApiDocument,
  type DocumentHeadOptions,
  documentHead,
  errorResponse,
} from './openapi/build-document';
export { type GeneratedFile, stableJson } from './openapi/generated-files';
export { componentSchemas, type JsonSchema } from './openapi/json-schemas';
export type { ErrorResponse } from './openapi/operations';
