import { toFieldErrors } from '@cspwatch/contract';
import type { z } from 'zod';
import { validationProblem } from '../http/problem';
import { readJson } from '../http/request-body';

/** Reads a JSON body and validates it with a zod schema; the problem (415, 413, 400) otherwise. */
export async function readValid<T extends z.ZodType>(
  request: Request,
  schema: T,
): Promise<{ ok: true; value: z.output<T> } | { ok: false; response: Response }> {
  const body = await readJson(request);
  if (!body.ok) return body;
  const parsed = schema.safeParse(body.value);
  if (parsed.success) return { ok: true, value: parsed.data };
  return { ok: false, response: validationProblem(toFieldErrors(parsed.error.issues)) };
}
