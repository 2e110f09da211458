import type * as z from 'zod/mini';
import { toJSONSchema } from 'zod/v4/core';
import { AlertSchema } from '../schemas/alert';
import { ListApiKeysQuerySchema } from '../schemas/list-query';
import { annotatedRegistry, COMPONENTS } from './annotations';

/** A JSON Schema (draft 2020-12) object, as written into the generated files. */
export type JsonSchema = { [keyword: string]: unknown };

const INTEGER_CHECKS: ReadonlySet<unknown> = new Set([Number.isSafeInteger, Number.isInteger]);

/** Whether a schema is one of the contract's integers: a number refined with an integer check. */
function isInteger(schema: z.core.$ZodType): boolean {
  const { type, checks } = schema._zod.def as { type: string; checks?: z.core.$ZodCheck[] };
  return (
    type === 'number' &&
    (checks ?? []).some((check) => INTEGER_CHECKS.has((check._zod.def as { fn?: unknown }).fn))
  );
}

const isEmptySchema = (value: unknown) =>
  typeof value === 'object' && value !== null && Object.keys(value).length === 0;

const options = (named = false) =>
  ({
    target: 'draft-2020-12',
    unrepresentable: 'throw',
    metadata: annotatedRegistry(named),
    override: ({ zodSchema, jsonSchema }) => {
      if (isInteger(zodSchema)) jsonSchema.type = 'integer';
      // An open object (a response) says so plainly: generators read `{}` as a map type.
      if (jsonSchema.type === 'object' && isEmptySchema(jsonSchema.additionalProperties))
        jsonSchema.additionalProperties = true;
      // An open enum (`annotations.ts`) is its `anyOf` alone, not also `type: string`.
      if (jsonSchema.anyOf && jsonSchema.type === 'string') delete jsonSchema.type;
    },
  }) as const satisfies Parameters<typeof toJSONSchema>[1];

/** Drops `$schema` and `$id`: the document's dialect and `$ref` paths apply to every component. */
function withoutDialect({ $schema: _, $id: __, ...schema }: JsonSchema): JsonSchema {
  return schema;
}

/**
 * Every named schema as JSON Schema, referring to each other with `#/components/schemas/<name>`.
 * zod's built-in generator writes the structure; descriptions, formats and the JSON Schema
 * twins of refinements come from `annotations.ts`.
 */
export function componentSchemas(): Record<string, JsonSchema> {
  const settings = options(true);
  const { schemas } = toJSONSchema(settings.metadata, {
    ...settings,
    uri: (id) => `#/components/schemas/${id}`,
  });
  return Object.fromEntries(
    COMPONENTS.map(([id]) => [id, withoutDialect(schemas[id] as JsonSchema)]),
  );
}

/** The list endpoint's query parameters, each as `[name, schema]` (its description moved out). */
export function listQueryParameters(): Array<[string, JsonSchema]> {
  const query = toJSONSchema(ListApiKeysQuerySchema, options()) as {
    properties: Record<string, JsonSchema>;
  };
  return Object.entries(query.properties);
}

/** The alert payload as a standalone JSON Schema document. */
export function alertJsonSchema(): JsonSchema {
  const { $schema, ...schema } = toJSONSchema(AlertSchema, options()) as JsonSchema;
  return {
    $schema,
    $id: 'https://cspwatch.example/schemas/alert.schema.json',
    title: 'cspwatch alert (csp-violation:new-type)',
    description:
      'The JSON body of a cspwatch webhook alert delivery. Verify the x-cspwatch-signature header over the raw body before trusting it.',
    ...schema,
  };
}
