/**
 * Test helpers: check HTTP exchanges and alert payloads against the OpenAPI document with a
 * third-party JSON Schema validator (Ajv, draft 2020-12), independent of the zod schemas the
 * document was generated from.
 *
 * @packageDocumentation
 */
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { openApiDocument } from './document';

/** What the validator needs of one HTTP exchange. */
export interface ExchangeRecord {
  /** `GET`, `POST`, ... */
  method: string;
  /** The full request URL. */
  url: string;
  /** Status of the response (ignored for a request check). */
  status?: number;
  /** Headers of the message being checked. */
  headers: Headers;
  /** The message body as text; empty for none. */
  body: string;
}

// biome-ignore lint/suspicious/noExplicitAny: walks an untyped JSON document
type Json = Record<string, any>;
const COMPONENTS_ID = 'urn:cspwatch:components';

/** Checks requests and responses against an OpenAPI document; each check lists what is wrong. */
export class OpenApiValidator {
  readonly #document: Json;
  readonly #ajv: Ajv2020;
  readonly #compiled = new Map<string, ValidateFunction>();

  /** @param document - an OpenAPI 3.1 document; the committed one by default */
  constructor(document: Json = openApiDocument) {
    // Refs point at `#/components/schemas/X`; rewritten to one Ajv schema holding them all.
    this.#document = JSON.parse(
      JSON.stringify(document).replaceAll('"#/components/schemas/', `"${COMPONENTS_ID}#/$defs/`),
    );
    this.#ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats.default(this.#ajv);
    this.#ajv.addSchema({ $id: COMPONENTS_ID, $defs: this.#document.components.schemas });
  }

  #validate(key: string, schema: Json, value: unknown): string[] {
    let validate = this.#compiled.get(key);
    if (!validate) {
      validate = this.#ajv.compile(schema);
      this.#compiled.set(key, validate);
    }
    if (validate(value)) return [];
    return (validate.errors ?? []).map(
      (error) => `${key}: ${error.instancePath || '(root)'} ${error.message ?? 'is invalid'}`,
    );
  }

  /** The documented operation of a request, or `undefined` for a path or method not in the document. */
  operation(
    method: string,
    url: string,
  ): { key: string; operation: Json; params: Json } | undefined {
    const { pathname } = new URL(url);
    for (const [template, item] of Object.entries(this.#document.paths as Json)) {
      const operation = item[method.toLowerCase()];
      if (!operation) continue;
      const names: string[] = [];
      const source = template.replace(/\{([^}]+)\}/g, (_, name: string) => {
        names.push(name);
        return '([^/]+)';
      });
      const match = new RegExp(`^${source}$`).exec(pathname);
      if (!match) continue;
      const params = Object.fromEntries(names.map((name, index) => [name, match[index + 1]]));
      return { key: `${method.toUpperCase()} ${template}`, operation, params };
    }
    return undefined;
  }

  /** Every documented response as `METHOD /template status-key`, e.g. `POST /v1/... 415`. */
  responseKeys(): string[] {
    const keys: string[] = [];
    for (const [template, item] of Object.entries(this.#document.paths as Json))
      for (const [method, operation] of Object.entries(item as Json))
        for (const status of Object.keys((operation as Json).responses))
          keys.push(`${method.toUpperCase()} ${template} ${status}`);
    return keys;
  }

  /** What is wrong with a response; `[]` when it conforms or its operation is not documented. */
  checkResponse(exchange: ExchangeRecord): string[] {
    const found = this.operation(exchange.method, exchange.url);
    if (!found) return [];
    const { key, operation } = found;
    const status = String(exchange.status);
    const responses = operation.responses as Json;
    const documented = responses[status] ?? responses[`${status[0]}XX`] ?? responses.default;
    if (!documented) return [`${key}: status ${status} is not documented`];
    const where = `${key} ${status}`;
    const errors: string[] = [];
    for (const [name, headerRef] of Object.entries((documented.headers ?? {}) as Json)) {
      const header = this.#resolve(headerRef);
      const value = exchange.headers.get(name);
      if (value === null) {
        if (header.required) errors.push(`${where}: header ${name} is missing`);
      } else {
        errors.push(...this.#validate(`${where} header ${name}`, header.schema, value));
      }
    }
    errors.push(...this.#checkBody(where, documented.content, exchange));
    return errors;
  }

  /** What is wrong with a request: path and query parameters, auth header and body. */
  checkRequest(exchange: ExchangeRecord): string[] {
    const found = this.operation(exchange.method, exchange.url);
    if (!found)
      return [`${exchange.method} ${new URL(exchange.url).pathname}: not in the document`];
    const { key, operation, params } = found;
    const errors: string[] = [];
    const query = new URL(exchange.url).searchParams;
    const declared = (operation.parameters ?? []) as Json[];
    for (const name of new Set(query.keys())) {
      if (!declared.some((p) => p.in === 'query' && p.name === name))
        errors.push(`${key}: query parameter ${name} is not documented`);
    }
    for (const parameter of declared) {
      const raw =
        parameter.in === 'path'
          ? decodeURIComponent(params[parameter.name])
          : parameter.in === 'query'
            ? query.get(parameter.name)
            : exchange.headers.get(parameter.name);
      if (raw === null || raw === undefined) {
        if (parameter.required)
          errors.push(`${key}: ${parameter.in} parameter ${parameter.name} is missing`);
        continue;
      }
      const value = parameter.schema.type === 'integer' && /^-?\d+$/.test(raw) ? Number(raw) : raw;
      errors.push(
        ...this.#validate(`${key} ${parameter.in} ${parameter.name}`, parameter.schema, value),
      );
    }
    const security = operation.security ?? this.#document.security;
    if (security.length > 0 && !/^Bearer \S+$/.test(exchange.headers.get('authorization') ?? ''))
      errors.push(`${key}: no Authorization: Bearer header`);
    if (operation.requestBody)
      errors.push(...this.#checkBody(`${key} request`, operation.requestBody.content, exchange));
    return errors;
  }

  /** What is wrong with an alert payload, checked against the webhook's request body schema. */
  checkAlert(payload: unknown): string[] {
    const schema =
      this.#document.webhooks.alert.post.requestBody.content['application/json'].schema;
    return this.#validate('alert', schema, payload);
  }

  #checkBody(where: string, content: Json | undefined, exchange: ExchangeRecord): string[] {
    if (exchange.status === 204 && exchange.body === '') return [];
    if (!content) return exchange.body === '' ? [] : [`${where}: a body is not documented`];
    const type = exchange.headers.get('content-type')?.split(';')[0]?.trim() ?? '';
    const media = content[type];
    if (!media)
      return [`${where}: content type "${type}" is not one of ${Object.keys(content).join(', ')}`];
    if (!media.schema) return [];
    let value: unknown;
    try {
      value = JSON.parse(exchange.body);
    } catch {
      return [`${where}: the body is not JSON`];
    }
    return this.#validate(`${where} ${type}`, media.schema, value);
  }

  #resolve(value: Json): Json {
    if (typeof value.$ref !== 'string') return value;
    const [, section, name] = /^#\/components\/(\w+)\/(.+)$/.exec(value.$ref) ?? [];
    return this.#document.components[section!][name!];
  }
}

/** Reads a message's body as text without consuming it. */
export async function bodyText(message: Request | Response): Promise<string> {
  return message.body === null ? '' : message.clone().text();
}
