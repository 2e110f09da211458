import type { PublicPackage } from './public-packages.mjs';

/** One pending changeset. */
export interface PendingChangeset {
  file: string;
  text: string;
  releases: { name: string; type: 'major' | 'minor' | 'patch' }[];
}
/** Reads every pending changeset in .changeset/. */
export function pendingChangesets(): PendingChangeset[];
/** What would keep `changeset version` from giving the promised versions; empty when nothing. */
export function bumpProblems(
  packages: Pick<PublicPackage, 'manifest'>[],
  changesets: Pick<PendingChangeset, 'file' | 'releases'>[],
): string[];
