import { join } from 'node:path';
import { defineConfig } from 'vitest/config';
import { workspaceSourceAliases } from '../../vitest.shared.ts';

/**
 * `pnpm test:install`, after `pnpm release`: installs each public package alone from .release/
 * into fresh projects with npm and pnpm and runs it, and tests the release rules the packing
 * and the cut rely on. Not a project of the root config: it needs the tarballs and the
 * registry, so CI runs it as its own step.
 */
export default defineConfig({
  // The mock server and the redis-server helper the test starts come from the workspace.
  resolve: { alias: workspaceSourceAliases() },
  test: {
    name: 'install',
    root: join(import.meta.dirname, '../..'),
    include: ['test/install/**/*.test.ts'],
    // Each test installs from the registry (through the shared npm cache and pnpm store): the
    // bound is for a cold cache on a busy machine, not for how long it usually takes.
    testTimeout: 300_000,
    hookTimeout: 60_000,
  },
});
