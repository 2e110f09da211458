import { buildOpenApiDocument } from './build-document';
import { alertJsonSchema } from './json-schemas';

/** The command that rewrites the generated files from the schemas. */
export const GENERATE_COMMAND = 'pnpm --filter @cspwatch/contract generate';

/**
 * Serialises JSON the same way every time: two-space indent and a final newline. Key order
 * is the builders' own (fixed in code), so equal code gives equal bytes.
 */
export function stableJson(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}

/** A file written by the generator: its path from the repository root and its content. */
export interface GeneratedFile {
  /** Path from the repository root. */
  path: string;
  /** The exact bytes to write, as text. */
  content: string;
}

/** Every file the contract generates: the OpenAPI document and the alert JSON Schema. */
export function generatedFiles(): GeneratedFile[] {
  return [
    { path: 'packages/client/openapi.json', content: stableJson(buildOpenApiDocument()) },
    { path: 'packages/webhooks/alert.schema.json', content: stableJson(alertJsonSchema()) },
  ];
}
