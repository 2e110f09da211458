import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { validate } from '@readme/openapi-parser';
import { describe, expect, it } from 'vitest';
import { budget } from '../../../test-budget';
import { buildOpenApiDocument } from '../src/openapi/build-document';
import { GENERATE_COMMAND, generatedFiles } from '../src/openapi/generated-files';
import { PROBLEM_CODES } from '../src/schemas/problem';

// biome-ignore lint/suspicious/noExplicitAny: reads an untyped JSON document
type Json = any;

const root = join(import.meta.dirname, '../../..');

describe('generated files', () => {
  it.each(generatedFiles())('$path is what the schemas generate', ({ path, content }) => {
    const committed = readFileSync(join(root, path), 'utf8');
    expect(
      committed === content,
      `${path} differs from the contract's schemas; run: ${GENERATE_COMMAND}`,
    ).toBe(true);
  });

  it('are byte-for-byte the same on every run, with a final newline', () => {
    const [first, second] = [generatedFiles(), generatedFiles()];
    expect(second).toEqual(first);
    for (const file of first) expect(file.content.endsWith('}\n')).toBe(true);
  });
});

describe('the OpenAPI document', () => {
  it('passes @readme/openapi-parser validation as OpenAPI 3.1', async () => {
    const result = await validate(structuredClone(buildOpenApiDocument()) as never);
    expect(result.valid ? [] : result.errors).toEqual([]);
    expect(result).toMatchObject({ valid: true, specification: 'OpenAPI' });
  });

  it(
    'passes `redocly lint` (recommended rules) with no error or warning',
    () => {
      const require = createRequire(import.meta.url);
      const manifest = require.resolve('@redocly/cli/package.json');
      const cli = join(dirname(manifest), 'bin/cli.js');
      const lint = spawnSync(
        process.execPath,
        [cli, 'lint', '--format', 'summary', join(root, 'packages/client/openapi.json')],
        { encoding: 'utf8', env: { ...process.env, REDOCLY_TELEMETRY: 'off' } },
      );
      expect(lint.status, lint.stdout + lint.stderr).toBe(0);
      expect(lint.stdout + lint.stderr).toContain('Your API description is valid');
      expect(lint.stdout + lint.stderr).not.toMatch(/You have \d+ warning/);
    },
    budget(30_000),
  );

  const document = buildOpenApiDocument() as Json;
  const list = document.paths['/v1/workspaces/{workspaceId}/api-keys'].get;
  const create = document.paths['/v1/workspaces/{workspaceId}/websites'].post;

  it('states every parameter rule of the list endpoint', () => {
    const byName = Object.fromEntries(list.parameters.map((p: Json) => [p.name, p]));
    expect(byName.workspaceId).toMatchObject({ in: 'path', required: true });
    expect(byName.limit.schema).toMatchObject({
      type: 'integer',
      minimum: 1,
      maximum: 200,
      default: 50,
    });
    expect(byName.q.schema).toMatchObject({ type: 'string', maxLength: 255 });
    expect(byName.cursor.schema).toMatchObject({ type: 'string', minLength: 1 });
  });

  it('states the create body rules and refuses unknown fields at every level', () => {
    const { CreateWebsiteRequest, CreateWebsiteSettings } = document.components.schemas;
    expect(CreateWebsiteRequest.properties.name).toMatchObject({ minLength: 1, maxLength: 255 });
    expect(CreateWebsiteRequest.properties.url).toMatchObject({ format: 'uri', maxLength: 2048 });
    expect(CreateWebsiteRequest.additionalProperties).toBe(false);
    expect(CreateWebsiteSettings.additionalProperties).toBe(false);
  });

  it('lists every status the mock answers, with its codes, x-request-id and Retry-After', () => {
    expect(Object.keys(list.responses)).toEqual(['200', '400', '401', '403', '404', '429', '5XX']);
    expect(Object.keys(create.responses)).toEqual([
      '201',
      '400',
      '401',
      '403',
      '404',
      '413',
      '415',
      '429',
      '5XX',
    ]);
    for (const operation of [list, create]) {
      for (const response of Object.values<Json>(operation.responses)) {
        expect(response.headers['x-request-id']).toBeDefined();
      }
      expect(operation.responses['429'].headers['retry-after']).toBeDefined();
    }
    const codes = (response: Json) =>
      response.content['application/problem+json'].schema.allOf[1].properties.code.anyOf[0].enum;
    expect(codes(create.responses['403'])).toEqual([
      'api_key_not_allowed',
      'forbidden_role',
      'website_limit_reached',
    ]);
    for (const operation of [list, create])
      for (const [status, response] of Object.entries<Json>(operation.responses))
        if (!status.startsWith('2'))
          for (const code of codes(response)) expect(PROBLEM_CODES).toContain(code);
  });

  it('describes the alert webhook with both signature headers', () => {
    const alert = document.webhooks.alert.post;
    const headers = Object.fromEntries(
      alert.parameters.map((p: Json) => [p.name, p.schema.pattern]),
    );
    expect(headers).toEqual({
      'x-cspwatch-timestamp': '^[0-9]+$',
      'x-cspwatch-signature': '^sha256=[0-9a-f]{64}$',
    });
    expect(alert.requestBody.content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/Alert',
    });
    expect(document.components.securitySchemes.bearerAuth).toMatchObject({
      type: 'http',
      scheme: 'bearer',
    });
  });
});

/** Every subschema of `schema`, itself included, with the `$ref`s it names. */
function* walk(schema: Json): Generator<Json> {
  if (typeof schema !== 'object' || schema === null) return;
  yield schema;
  for (const value of Object.values(schema))
    if (Array.isArray(value)) for (const item of value) yield* walk(item);
    else yield* walk(value);
}

describe('responses open, requests strict', () => {
  const document = buildOpenApiDocument() as Json;
  const schemas = document.components.schemas;
  /** The components a response reaches, following `$ref`s. */
  const reachable = (roots: Json[]): Set<string> => {
    const names = new Set<string>();
    const visit = (schema: Json) => {
      for (const node of walk(schema)) {
        const name = /^#\/components\/schemas\/(.+)$/.exec(node.$ref ?? '')?.[1];
        if (name && !names.has(name)) {
          names.add(name);
          visit(schemas[name]);
        }
      }
    };
    for (const root of roots) visit(root);
    return names;
  };
  const operations = Object.values<Json>(document.paths).flatMap((item) =>
    Object.values<Json>(item),
  );
  const responseSchemas = operations.flatMap((operation) =>
    Object.values<Json>(operation.responses).flatMap((response) =>
      Object.values<Json>(response.content ?? {}).map((media) => media.schema),
    ),
  );
  const requestSchemas = operations.flatMap((operation) => [
    ...Object.values<Json>(operation.requestBody?.content ?? {}).map((media) => media.schema),
    ...(operation.parameters ?? []).map((parameter: Json) => parameter.schema),
  ]);

  it('every object a response reaches keeps unknown fields, and every enum there is open', () => {
    const names = reachable(responseSchemas);
    expect([...names].sort()).toEqual([
      'ApiKey',
      'ApiKeyCreator',
      'ApiKeyPage',
      'Pagination',
      'Problem',
      'ProblemCode',
      'ProblemFieldError',
      'Website',
      'WebsiteSettings',
    ]);
    for (const schema of [...responseSchemas, ...[...names].map((name) => schemas[name])])
      for (const node of walk(schema)) {
        if (node.type === 'object') expect(node.additionalProperties, node).toBe(true);
        expect(node.additionalProperties, node).not.toBe(false);
        if (node.enum)
          expect(node, 'an enum must sit in an anyOf beside a plain string').toEqual({
            type: 'string',
            enum: node.enum,
          });
        if (node.anyOf?.some((branch: Json) => branch.enum))
          expect(node.anyOf).toContainEqual({ type: 'string' });
        for (const constraint of ['minimum', 'maximum', 'const', 'pattern', 'minLength'])
          expect(node, `a response states types, not ${constraint}`).not.toHaveProperty(constraint);
      }
  });

  it('the request body and every object it reaches stay closed', () => {
    const names = reachable(requestSchemas);
    expect([...names].sort()).toEqual(['CreateWebsiteRequest', 'CreateWebsiteSettings']);
    for (const name of names) expect(schemas[name].additionalProperties).toBe(false);
  });

  it('states the website and pagination fields as open, typed values', () => {
    const { Website, Pagination, ProblemCode } = schemas;
    expect(Website.properties.role.anyOf).toEqual([
      { type: 'string', enum: ['manager', 'viewer'] },
      { type: 'string' },
    ]);
    expect(Website.properties.usageLimit).toMatchObject({ type: 'integer', format: 'int64' });
    expect(Pagination.properties.total).toMatchObject({ type: 'integer', format: 'int64' });
    expect(ProblemCode.anyOf[0].enum).toEqual([...PROBLEM_CODES]);
  });

  it('documents Retry-After as seconds or an HTTP date', () => {
    const retryAfter = document.components.headers.RetryAfter;
    expect(retryAfter.schema).not.toHaveProperty('pattern');
    expect(retryAfter.schema.examples).toContain('Wed, 21 Oct 2026 07:28:00 GMT');
  });
});
