import * as z from 'zod/mini';

/*
 * The client reads responses with schemas derived from the strict ones, so the contract is
 * written once. A server may add fields and enum values, and may leave out a field it would
 * send as null; none of that may break a client built today.
 */

type Schema = z.core.$ZodType;

/** The type of {@link forwardCompatible}'s result for a schema of type `T`. */
export type ForwardCompatible<T> =
  T extends z.ZodMiniObject<infer Shape>
    ? z.ZodMiniObject<{ -readonly [K in keyof Shape]: ForwardCompatible<Shape[K]> }, z.core.$loose>
    : T extends z.ZodMiniArray<infer Element>
      ? z.ZodMiniArray<ForwardCompatible<Element>>
      : T extends z.ZodMiniNullable<infer Inner>
        ? z.ZodMiniOptional<z.ZodMiniNullable<ForwardCompatible<Inner>>>
        : T extends z.ZodMiniOptional<infer Inner>
          ? z.ZodMiniOptional<ForwardCompatible<Inner>>
          : T extends z.ZodMiniEnum
            ? z.ZodMiniString<string>
            : T extends z.ZodMiniStringFormat
              ? z.ZodMiniString<string>
              : T;

/**
 * Derives the forward-compatible reading of a strict response schema: objects keep unknown
 * fields, enums accept any string, string formats (date-time, URI) accept any string, and a
 * nullable field may also be absent. Everything else (types, required fields, integer and
 * boolean fields, literals) is checked as strictly as before.
 *
 * @example
 * ```ts
 * const ApiKeyReader = forwardCompatible(ApiKeySchema);
 * ApiKeyReader.parse({ ...key, someNewField: 1 }); // kept, not refused
 * ```
 */
export const forwardCompatible = loosen as <T extends Schema>(schema: T) => ForwardCompatible<T>;

function loosen(schema: Schema): Schema {
  const def = schema._zod.def as z.core.$ZodTypeDef & {
    shape?: Record<string, Schema>;
    element?: Schema;
    innerType?: Schema;
    format?: string;
  };
  const { type } = def;
  if (type === 'object') {
    const shape: Record<string, Schema> = {};
    for (const key in def.shape) shape[key] = loosen(def.shape[key]!);
    return z.looseObject(shape);
  }
  if (type === 'array') return z.array(loosen(def.element!));
  if (type === 'nullable') return z.optional(z.nullable(loosen(def.innerType!)));
  if (type === 'optional') return z.optional(loosen(def.innerType!));
  return type === 'enum' || def.format ? z.string() : schema;
}
