/**
 * Lists the changes between two OpenAPI 3.1 documents that break an integrator: an operation
 * or success status gone; a request that was valid and is now refused (a new required field or
 * parameter, a tighter limit, an enum value or a field gone from a strict body, another type);
 * an answer a generated client reads that lost a field or changed its type. Answers may gain
 * fields and enum values (responses are open), so those are not breaking. No npm OpenAPI diff
 * tool reads 3.1 offline on Node 20 (see docs/api-contract.md), hence this small one.
 */

// biome-ignore lint/suspicious/noExplicitAny: walks untyped JSON documents
type Json = any;
type Side = 'request' | 'response';

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'];
const TIGHTER_IF_LOWER = ['maximum', 'exclusiveMaximum', 'maxLength', 'maxItems', 'maxProperties'];
const TIGHTER_IF_HIGHER = ['minimum', 'exclusiveMinimum', 'minLength', 'minItems', 'minProperties'];

function resolver(document: Json) {
  return (schema: Json): Json => {
    let current = schema;
    for (let depth = 0; typeof current?.$ref === 'string' && depth < 20; depth++) {
      const path = current.$ref.replace(/^#\//, '').split('/');
      current = path.reduce((node: Json, key: string) => node?.[key], document);
    }
    return current ?? {};
  };
}

const types = (schema: Json): string[] =>
  schema.type === undefined ? [] : [schema.type].flat().sort();
const optionsOf = (schema: Json): Json[] => schema.anyOf ?? schema.oneOf ?? [];

/** Compares the schemas of one place in both documents, pushing what breaks. */
function compareSchemas(before: Json, after: Json, side: Side, where: string, found: string[]) {
  const [resolveBefore, resolveAfter] = [resolver(before.document), resolver(after.document)];
  const seen = new Set<string>();
  const walk = (a: Json, b: Json, at: string) => {
    const key = `${a?.$ref ?? ''}|${b?.$ref ?? ''}|${at}`;
    if (seen.has(key) || seen.size > 5000) return;
    seen.add(key);
    const old = resolveBefore(a);
    const now = resolveAfter(b);
    if (Array.isArray(old.allOf) && Array.isArray(now.allOf))
      for (const [index, part] of old.allOf.entries()) walk(part, now.allOf[index] ?? {}, at);
    const [oldTypes, newTypes] = [types(old), types(now)];
    if (oldTypes.length > 0 && newTypes.length > 0) {
      const lost = oldTypes.filter((type) => !newTypes.includes(type));
      const gained = newTypes.filter((type) => !oldTypes.includes(type) && type !== 'integer');
      if (side === 'request' && lost.length > 0)
        found.push(`${at}: no longer accepts type ${lost.join(', ')}`);
      if (side === 'response' && gained.length > 0)
        found.push(`${at}: may now be of type ${gained.join(', ')}`);
    }
    if (side === 'request') {
      for (const limit of TIGHTER_IF_LOWER)
        if (now[limit] !== undefined && (old[limit] === undefined || now[limit] < old[limit]))
          found.push(`${at}: ${limit} tightened to ${now[limit]}`);
      for (const limit of TIGHTER_IF_HIGHER)
        if (now[limit] !== undefined && (old[limit] === undefined || now[limit] > old[limit]))
          found.push(`${at}: ${limit} tightened to ${now[limit]}`);
      if (Array.isArray(old.enum)) {
        const gone = old.enum.filter((value: unknown) => !(now.enum ?? old.enum).includes(value));
        if (gone.length > 0) found.push(`${at}: no longer accepts ${JSON.stringify(gone)}`);
      }
      if (now.pattern !== undefined && now.pattern !== old.pattern)
        found.push(`${at}: pattern changed to ${now.pattern}`);
      for (const name of now.required ?? [])
        if (!(old.required ?? []).includes(name)) found.push(`${at}.${name}: newly required`);
      if (now.additionalProperties === false)
        for (const name of Object.keys(old.properties ?? {}))
          if (!(name in (now.properties ?? {}))) found.push(`${at}.${name}: no longer accepted`);
    } else {
      for (const name of old.required ?? [])
        if (!(now.required ?? []).includes(name))
          found.push(`${at}.${name}: no longer always sent`);
    }
    for (const [name, schema] of Object.entries<Json>(old.properties ?? {}))
      if (now.properties?.[name]) walk(schema, now.properties[name], `${at}.${name}`);
    if (old.items && now.items) walk(old.items, now.items, `${at}[]`);
    const oldOptions = optionsOf(old);
    const newOptions = optionsOf(now);
    if (oldOptions.length > 0 && oldOptions.length === newOptions.length)
      for (const [index, option] of oldOptions.entries())
        walk(option, newOptions[index], `${at}|${index}`);
  };
  walk(before.schema, after.schema, where);
}

function operations(document: Json, section: 'paths' | 'webhooks') {
  const found = new Map<string, Json>();
  for (const [path, item] of Object.entries<Json>(document[section] ?? {}))
    for (const method of METHODS)
      if (item[method]) found.set(`${method.toUpperCase()} ${path}`, item[method]);
  return found;
}

/** Every breaking change from `before` to `after`, one line each; `[]` when there is none. */
export function breakingChanges(before: Json, after: Json): string[] {
  const found: string[] = [];
  const compare = (a: Json, b: Json, side: Side, where: string) =>
    compareSchemas(
      { document: before, schema: a },
      { document: after, schema: b },
      side,
      where,
      found,
    );
  for (const section of ['paths', 'webhooks'] as const) {
    const next = operations(after, section);
    for (const [key, old] of operations(before, section)) {
      const now = next.get(key);
      if (!now) {
        found.push(`${key}: removed`);
        continue;
      }
      // A webhook's request body is what the integrator receives: read like a response.
      const incoming: Side = section === 'webhooks' ? 'response' : 'request';
      const oldParameters = new Map<string, Json>(
        (old.parameters ?? []).map((p: Json) => [`${p.in} ${p.name}`, p]),
      );
      for (const parameter of now.parameters ?? []) {
        const id = `${parameter.in} ${parameter.name}`;
        const previous = oldParameters.get(id);
        if (!previous && parameter.required) found.push(`${key} ${id}: new required parameter`);
        if (previous) compare(previous.schema, parameter.schema, incoming, `${key} ${id}`);
        oldParameters.delete(id);
      }
      for (const id of oldParameters.keys()) found.push(`${key} ${id}: parameter removed`);
      for (const [type, media] of Object.entries<Json>(old.requestBody?.content ?? {})) {
        const current = now.requestBody?.content?.[type];
        if (!current) found.push(`${key} request ${type}: no longer accepted`);
        else compare(media.schema, current.schema, incoming, `${key} request`);
      }
      for (const [status, response] of Object.entries<Json>(old.responses ?? {})) {
        const current = now.responses?.[status];
        if (!current) {
          if (status.startsWith('2')) found.push(`${key} ${status}: response removed`);
          continue;
        }
        for (const [type, media] of Object.entries<Json>(response.content ?? {}))
          if (current.content?.[type])
            compare(media.schema, current.content[type].schema, 'response', `${key} ${status}`);
          else if (media.schema) found.push(`${key} ${status} ${type}: no longer sent`);
      }
    }
  }
  return found;
}
