import type * as z from 'zod/mini';

/*
 * An allocation-free check of a 2xx body against its zod schema, derived from the schema's
 * definition, so the schemas stay the one home of the shape. zod/mini copies every object
 * and allocates per field, for every key of every page; this check reads the body in place
 * (bench/RESULTS.md, "Speed tricks kept", says what it is worth). Only the kinds the
 * response schemas use are checked here (loose objects, arrays, strings, booleans, optional,
 * nullable); any other kind, or a kind with checks, is handed to zod. A loose schema without
 * transforms outputs the data it was given, so a body that passes is returned as parsed; one
 * that fails goes through zod, which names the issues.
 */

/** A check; `type` is set when `typeof value === type` is the whole check. */
type Check = ((value: unknown) => boolean) & { type?: string };

interface Definition {
  type: string;
  checks?: unknown[];
  innerType?: z.ZodMiniType;
  element?: z.ZodMiniType;
  shape?: Record<string, z.ZodMiniType>;
  catchall?: z.ZodMiniType;
}

const compiled = new WeakMap<z.ZodMiniType, Check>();

/** The check of `schema`, compiled once. Internal. */
export function fastCheck(schema: z.ZodMiniType): Check {
  let check = compiled.get(schema);
  if (!check) {
    check = compile(schema);
    compiled.set(schema, check);
  }
  return check;
}

function compile(schema: z.ZodMiniType): Check {
  const def = schema._zod.def as Definition;
  const inner = (of: z.ZodMiniType | undefined) => compile(of as z.ZodMiniType);
  if (!def.checks?.length) {
    const { type } = def;
    // Tagged with its type, so an object checks such a field by `typeof`, without the call.
    if (type === 'string' || type === 'boolean') {
      return Object.assign((value: unknown) => typeof value === type, { type });
    }
    if (type === 'optional' || type === 'nullable') {
      const check = inner(def.innerType);
      const empty = type === 'optional' ? undefined : null;
      return (value) => value === empty || check(value);
    }
    if (type === 'array') {
      const check = inner(def.element);
      return (value) => Array.isArray(value) && value.every(check);
    }
    if (type === 'object' && def.catchall?._zod.def.type === 'unknown') {
      const names = Object.keys(def.shape ?? {});
      const checks = names.map((name) => inner(def.shape?.[name]));
      // Most of a key's fields are plain strings: checked by `typeof` here, without a call each.
      const types = checks.map((check) => check.type);
      return (value) => {
        if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
        for (let index = 0; index < names.length; index++) {
          const field = (value as Record<string, unknown>)[names[index]!];
          if (typeof field !== types[index] && !checks[index]!(field)) return false;
        }
        return true;
      };
    }
  }
  return (value) => schema.safeParse(value).success;
}
