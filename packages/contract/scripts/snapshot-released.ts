/**
 * Copies the shipped OpenAPI documents to `openapi/released/`: the baseline the breaking-change
 * test compares against. Run by `pnpm version-packages` (after `changeset version`), so the
 * baseline is always the documents of the last release.
 */

import { releasedBaselines } from './released-baselines';
import { writeGeneratedFiles } from './write-generated-files';

writeGeneratedFiles(
  releasedBaselines(),
  'pnpm contract:baseline',
  process.argv.includes('--check'),
);
