import { builtinModules } from 'node:module';
import { defineProject, type Plugin } from 'vitest/config';
import { scaledTimeouts } from '../../test-budget.ts';
import { workspaceSourceAliases } from '../../vitest.shared.ts';

/**
 * Fails any import of a Node built-in made by this package's source, so the Web path
 * (index, fetch, next, testing) cannot quietly start depending on Node.
 */
function forbidNodeBuiltins(): Plugin {
  const names = builtinModules.filter((name) => !name.startsWith('_')).join('|');
  const nodeImport = new RegExp(
    `(?:from|import|require\\()\\s*['"](?:node:[^'"]+|(?:${names})(?:/[^'"]*)?)['"]`,
  );
  return {
    name: 'cspwatch:forbid-node-builtins',
    enforce: 'pre',
    transform(code, id) {
      if (!id.includes('/packages/webhooks/src/')) return null;
      const found = nodeImport.exec(code);
      if (found !== null) {
        throw new Error(
          `${id} imports a Node built-in (${found[0]}): the Web entry must run on edge runtimes.`,
        );
      }
      return null;
    },
  };
}

/** The Web entry under the Edge runtime's globals (@edge-runtime/vm), with Node built-ins banned. */
export default defineProject({
  plugins: [forbidNodeBuiltins()],
  resolve: { alias: workspaceSourceAliases() },
  test: {
    ...scaledTimeouts,
    name: 'webhooks-edge',
    environment: 'edge-runtime',
    include: ['test/edge/**/*.test.ts'],
  },
});
