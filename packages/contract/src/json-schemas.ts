import * as z from 'zod/mini';
import { toJSONSchema } from 'zod/v4/core';
import { AlertSchema, AlertWebsiteSchema, AlertWindowSchema, NewTypeFindingSchema } from './alert';
import {
  ApiKeyCreatorSchema,
  ApiKeyPageSchema,
  ApiKeySchema,
  ListApiKeysQuerySchema,
  PaginationSchema,
} from './api-key';
import { ProblemCodeSchema, ProblemFieldErrorSchema, ProblemSchema } from './problem';
import {
  CreateWebsiteRequestSchema,
  CreateWebsiteSettingsSchema,
  WebsiteSchema,
  WebsiteSettingsSchema,
} from './website';

/** A JSON Schema (draft 2020-12) object, as written into the generated files. */
export type JsonSchema = { [keyword: string]: unknown };

/** The named schemas of the document, in the order they are listed under `components.schemas`. */
const COMPONENTS: ReadonlyArray<[string, z.core.$ZodType]> = [
  ['ApiKey', ApiKeySchema],
  ['ApiKeyCreator', ApiKeyCreatorSchema],
  ['ApiKeyPage', ApiKeyPageSchema],
  ['Pagination', PaginationSchema],
  ['CreateWebsiteRequest', CreateWebsiteRequestSchema],
  ['CreateWebsiteSettings', CreateWebsiteSettingsSchema],
  ['Website', WebsiteSchema],
  ['WebsiteSettings', WebsiteSettingsSchema],
  ['Problem', ProblemSchema],
  ['ProblemCode', ProblemCodeSchema],
  ['ProblemFieldError', ProblemFieldErrorSchema],
  ['Alert', AlertSchema],
  ['AlertFinding', NewTypeFindingSchema],
  ['AlertWebsite', AlertWebsiteSchema],
  ['AlertWindow', AlertWindowSchema],
];

const options = { target: 'draft-2020-12', unrepresentable: 'throw' } as const;

/** Drops `$schema` and `$id`: the document's dialect and `$ref` paths apply to every component. */
function withoutDialect({ $schema: _, $id: __, ...schema }: JsonSchema): JsonSchema {
  return schema;
}

/**
 * Every named schema as JSON Schema, referring to each other with `#/components/schemas/<name>`.
 * zod's built-in generator writes the structure; code-point lengths, URI patterns and
 * descriptions come from each schema's `z.meta()`.
 */
export function componentSchemas(): Record<string, JsonSchema> {
  const registry = z.registry<{ id: string }>();
  for (const [id, schema] of COMPONENTS) registry.add(schema, { id });
  const { schemas } = toJSONSchema(registry, {
    ...options,
    uri: (id) => `#/components/schemas/${id}`,
  });
  return Object.fromEntries(
    COMPONENTS.map(([id]) => [id, withoutDialect(schemas[id] as JsonSchema)]),
  );
}

/** The list endpoint's query parameters, each as `[name, schema]` (its description moved out). */
export function listQueryParameters(): Array<[string, JsonSchema]> {
  const query = toJSONSchema(ListApiKeysQuerySchema, options) as {
    properties: Record<string, JsonSchema>;
  };
  return Object.entries(query.properties);
}

/** The alert payload as a standalone JSON Schema document. */
export function alertJsonSchema(): JsonSchema {
  const { $schema, ...schema } = toJSONSchema(AlertSchema, options) as JsonSchema;
  return {
    $schema,
    $id: 'https://cspwatch.example/schemas/alert.schema.json',
    title: 'cspwatch alert (csp-violation:new-type)',
    description:
      'The JSON body of a cspwatch webhook alert delivery. Verify the x-cspwatch-signature header over the raw body before trusting it.',
    ...schema,
  };
}
