import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { GeneratedFile } from '../src/openapi/generated-files';

const root = join(import.meta.dirname, '../../..');

/** A shipped document, the package that ships it, and where its released copy is kept. */
export interface ShippedDocument {
  /** The npm package whose users integrate against the document. */
  packageName: string;
  /** The package folder, from the repository root. */
  packageDir: string;
  /** The document as it is now, from the repository root. */
  current: string;
  /** Its copy as last released, from the repository root. */
  released: string;
}

/** The documents under the breaking-change check. */
export const SHIPPED_DOCUMENTS: readonly ShippedDocument[] = [
  {
    packageName: '@cspwatch/client',
    packageDir: 'packages/client',
    current: 'packages/client/openapi.json',
    released: 'packages/contract/openapi/released/client-openapi.json',
  },
  {
    packageName: '@cspwatch/mock-server',
    packageDir: 'packages/mock-server',
    current: 'packages/mock-server/openapi.json',
    released: 'packages/contract/openapi/released/mock-server-openapi.json',
  },
];

/** The released copies as they would be written now: each current document, byte for byte. */
export function releasedBaselines(): GeneratedFile[] {
  return SHIPPED_DOCUMENTS.map(({ current, released }) => ({
    path: released,
    content: readFileSync(join(root, current), 'utf8'),
  }));
}
