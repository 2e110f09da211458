import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { validate } from '@readme/openapi-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROBLEM_CODES } from '../../contract/src/schemas/problem';
import {
  buildMockOpenApiDocument,
  MOCK_DOCUMENT_PATH,
  MOCK_GENERATE_COMMAND,
  mockGeneratedFiles,
} from '../src/control/openapi-document';
import { CONTROL_ROUTES } from '../src/control/table';
import { type MockServer, startMockServer } from '../src/index';

// biome-ignore lint/suspicious/noExplicitAny: reads an untyped JSON document
type Json = any;

const root = join(import.meta.dirname, '../../..');
const document = buildMockOpenApiDocument() as Json;

describe("the mock's own OpenAPI document", () => {
  it.each(mockGeneratedFiles())('$path is what the zod schemas generate', ({ path, content }) => {
    const committed = readFileSync(join(root, path), 'utf8');
    expect(committed === content, `${path} is stale; run: ${MOCK_GENERATE_COMMAND}`).toBe(true);
  });

  it('passes @readme/openapi-parser validation as OpenAPI 3.1', async () => {
    const result = await validate(structuredClone(document) as never);
    expect(result.valid ? [] : result.errors).toEqual([]);
  });

  it('passes `redocly lint` (recommended rules) with no error or warning', () => {
    const require = createRequire(join(root, 'packages/contract/package.json'));
    const cli = join(dirname(require.resolve('@redocly/cli/package.json')), 'bin/cli.js');
    const lint = spawnSync(
      process.execPath,
      [
        cli,
        'lint',
        '--config',
        join(root, 'packages/mock-server/redocly.yaml'),
        '--format',
        'summary',
        join(root, 'packages/mock-server/openapi.json'),
      ],
      { encoding: 'utf8', env: { ...process.env, REDOCLY_TELEMETRY: 'off' } },
    );
    expect(lint.status, lint.stdout + lint.stderr).toBe(0);
    expect(lint.stdout + lint.stderr).not.toMatch(/You have \d+ warning/);
  }, 60_000);

  it('describes every control route and method the mock answers', () => {
    const documented = new Set<string>();
    for (const [path, item] of Object.entries<Json>(document.paths))
      for (const method of Object.keys(item)) documented.add(`${method.toUpperCase()} ${path}`);
    const served = CONTROL_ROUTES.flatMap((route) => {
      const param = route.segments.includes('alert-rules') ? '{ruleId}' : '{channelId}';
      const path = `/${route.segments.map((s) => (s === ':' ? param : s)).join('/')}`;
      return Object.keys(route.methods).map((method) => `${method} ${path}`);
    });
    expect(served.filter((key) => !documented.has(key))).toEqual([]);
  });

  it('takes its request bodies from the schemas the routes validate with', () => {
    const { FaultsRequest, Scenario, CreateInboxChannelRequest } = document.components.schemas;
    expect(FaultsRequest.additionalProperties).toBe(false);
    expect(FaultsRequest.properties.serverErrorStatus).toMatchObject({
      minimum: 500,
      maximum: 599,
    });
    expect(Scenario.required).toEqual(['workspaces']);
    expect(CreateInboxChannelRequest.required).toEqual(['secret']);
    for (const item of Object.values<Json>(document.paths))
      for (const operation of Object.values<Json>(item))
        for (const [status, response] of Object.entries<Json>(operation.responses)) {
          const schema = response.content?.['application/problem+json']?.schema;
          if (!schema) continue;
          expect(status).toMatch(/^[45]/);
          // The inbox's refusals carry the verifier's codes, so only the API's are narrowed.
          if (!schema.allOf) continue;
          const known = schema.allOf[1].properties.code.anyOf[0];
          for (const code of known.enum) expect(PROBLEM_CODES).toContain(code);
        }
  });
});

describe(`GET ${MOCK_DOCUMENT_PATH}`, () => {
  let server: MockServer;
  beforeAll(async () => {
    server = await startMockServer({ port: 0, host: '127.0.0.1' });
  });
  afterAll(() => server.close());

  it('serves the committed document as JSON', async () => {
    const response = await fetch(`${server.url}${MOCK_DOCUMENT_PATH}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await response.json()).toEqual(
      JSON.parse(readFileSync(join(root, 'packages/mock-server/openapi.json'), 'utf8')),
    );
  });
});
