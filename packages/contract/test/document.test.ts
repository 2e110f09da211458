import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { validate } from '@readme/openapi-parser';
import { describe, expect, it } from 'vitest';
import { budget } from '../../../test-budget';
import { GENERATE_COMMAND, generatedFiles } from '../src/generated-files';
import { buildOpenApiDocument } from '../src/openapi';
import { PROBLEM_CODES } from '../src/problem';

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
    const { Website, Pagination } = document.components.schemas;
    expect(Website.properties.role.enum).toEqual(['manager', 'viewer']);
    expect(Website.properties.usageLimit.type).toBe('integer');
    expect(Pagination.properties.total).toEqual(
      expect.objectContaining({ type: 'integer', minimum: 0 }),
    );
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
      response.content['application/problem+json'].schema.allOf[1].properties.code.enum;
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
