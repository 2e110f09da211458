/** A public workspace package. */
export interface PublicPackage {
  folder: string;
  dir: string;
  manifest: { name: string; version: string } & Record<string, unknown>;
}
/** The repository root. */
export const root: string;
/** Where `pnpm release` writes the tarballs. */
export const releaseDir: string;
/** Reads the public packages' manifests as they are on disk now. */
export function publicPackages(): PublicPackage[];
/** The file name `pnpm pack` gives a package's tarball. */
export function tarballName(manifest: { name: string; version: string }): string;
