/**
 * The shipped OpenAPI documents against their last released copies: a change that breaks an
 * integrator fails here unless a pending changeset bumps the package that ships the document
 * by a major (a minor while it is 0.x), which is how semver says "this breaks you".
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SHIPPED_DOCUMENTS } from '../scripts/released-baselines';
import { breakingChanges } from './breaking-changes';

// biome-ignore lint/suspicious/noExplicitAny: edits untyped JSON documents
type Json = any;

const root = join(import.meta.dirname, '../../..');
const readJson = (path: string): Json => JSON.parse(readFileSync(join(root, path), 'utf8'));

/** The bump each pending changeset gives each package, e.g. `{ '@cspwatch/client': ['minor'] }`. */
function pendingBumps(): Map<string, string[]> {
  const bumps = new Map<string, string[]>();
  const folder = join(root, '.changeset');
  for (const file of readdirSync(folder)) {
    if (!file.endsWith('.md') || file === 'README.md') continue;
    const front = /^---\r?\n([\s\S]*?)\r?\n---/.exec(readFileSync(join(folder, file), 'utf8'));
    for (const line of front?.[1]?.split(/\r?\n/) ?? []) {
      const entry = /^\s*["']?([^"':]+)["']?\s*:\s*(major|minor|patch)\s*$/.exec(line);
      if (entry) bumps.set(entry[1]!, [...(bumps.get(entry[1]!) ?? []), entry[2]!]);
    }
  }
  return bumps;
}

describe.each(SHIPPED_DOCUMENTS)('$current against its last release', (shipped) => {
  it('breaks no integrator, or a pending changeset says so with a breaking bump', () => {
    const changes = breakingChanges(readJson(shipped.released), readJson(shipped.current));
    if (changes.length === 0) return;
    const { version } = readJson(`${shipped.packageDir}/package.json`) as { version: string };
    const breakingBump = version.startsWith('0.') ? ['major', 'minor'] : ['major'];
    const bumps = pendingBumps().get(shipped.packageName) ?? [];
    expect(
      bumps.some((bump) => breakingBump.includes(bump)),
      `${shipped.current} breaks integrators of ${shipped.packageName} ${version}:\n  ${changes.join('\n  ')}\nAdd a changeset that bumps ${shipped.packageName} by ${breakingBump.join(' or ')} and says what breaks, or keep the change compatible.`,
    ).toBe(true);
  });
});

describe('breakingChanges', () => {
  const current = readJson('packages/client/openapi.json');
  const list = (document: Json) => document.paths['/v1/workspaces/{workspaceId}/api-keys'].get;
  const limit = (document: Json) =>
    list(document).parameters.find((p: Json) => p.name === 'limit').schema;
  const changed = (edit: (document: Json) => void) => {
    const next = structuredClone(current);
    edit(next);
    return breakingChanges(current, next);
  };

  it('finds nothing between a document and itself', () => {
    expect(breakingChanges(current, structuredClone(current))).toEqual([]);
  });

  it('lets answers gain fields and enum values, and requests gain optional fields', () => {
    expect(
      changed((document) => {
        const { Website, CreateWebsiteRequest } = document.components.schemas;
        Website.properties.extra = { type: 'string' };
        Website.properties.role.anyOf[0].enum.push('owner');
        CreateWebsiteRequest.properties.note = { type: 'string' };
        limit(document).maximum = 500;
      }),
    ).toEqual([]);
  });

  it('finds an operation removed', () => {
    expect(
      changed((document) => delete document.paths['/v1/workspaces/{workspaceId}/websites']),
    ).toEqual(['POST /v1/workspaces/{workspaceId}/websites: removed']);
  });

  it('finds a request refused that was accepted', () => {
    const found = changed((document) => {
      const { CreateWebsiteRequest, CreateWebsiteSettings } = document.components.schemas;
      CreateWebsiteRequest.required.push('settings');
      CreateWebsiteRequest.properties.name.maxLength = 100;
      delete CreateWebsiteSettings.properties.dropReferrer;
      list(document).parameters.push({
        name: 'team',
        in: 'query',
        required: true,
        schema: { type: 'string' },
      });
    });
    expect(found).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/request\.settings: newly required$/),
        expect.stringMatching(/request\.name: maxLength tightened to 100$/),
        expect.stringMatching(/request\.settings\.dropReferrer: no longer accepted$/),
        expect.stringMatching(/query team: new required parameter$/),
      ]),
    );
  });

  it('finds an answer field gone or changed, and an alert field gone', () => {
    const found = changed((document) => {
      const { Website, Pagination, Alert } = document.components.schemas;
      Website.required = Website.required.filter((name: string) => name !== 'endpointUrl');
      Pagination.properties.total.type = ['integer', 'null'];
      Alert.required = Alert.required.filter((name: string) => name !== 'rule');
    });
    expect(found).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/201\.endpointUrl: no longer always sent$/),
        expect.stringMatching(/200\.pagination\.total: may now be of type null$/),
        expect.stringMatching(/^POST alert request\.rule: no longer always sent$/),
      ]),
    );
  });
});
