// The published packages of the workspace: every packages/* folder whose manifest is not private.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The repository root. */
export const root = join(import.meta.dirname, '../..');

/** Where `pnpm release` writes the tarballs. */
export const releaseDir = join(root, '.release');

/**
 * Reads the public packages' manifests as they are on disk now.
 * @returns `{ folder, dir, manifest }` for each, in folder order
 */
export function publicPackages() {
  return readdirSync(join(root, 'packages'))
    .map((folder) => ({ folder, dir: join(root, 'packages', folder) }))
    .filter(({ dir }) => existsSync(join(dir, 'package.json')))
    .map((entry) => ({
      ...entry,
      manifest: JSON.parse(readFileSync(join(entry.dir, 'package.json'), 'utf8')),
    }))
    .filter(({ manifest }) => manifest.private !== true);
}

/**
 * The file name `pnpm pack` gives a package's tarball: `@cspwatch/webhook-sender` at 0.1.0 is
 * `cspwatch-webhook-sender-0.1.0.tgz`.
 */
export function tarballName({ name, version }) {
  return `${name.replace(/^@/, '').replace('/', '-')}-${version}.tgz`;
}
