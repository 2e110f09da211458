// Size budgets (a file rather than package.json: the /msw build awaits at its top level, which
// size-limit's default IIFE bundle cannot hold, so that check bundles as ESM).
const shared = ['@cspwatch/webhooks', '@cspwatch/webhook-sender', 'zod', 'node:crypto'];

export default [
  {
    name: '@cspwatch/mock-server (ESM)',
    path: 'dist/index.js',
    limit: '37.45 kB',
    gzip: true,
    ignore: [...shared, 'node:http'],
  },
  {
    name: '@cspwatch/mock-server/msw (ESM)',
    path: 'dist/msw.js',
    limit: '36.15 kB',
    gzip: true,
    ignore: [...shared, 'msw'],
    modifyEsbuildConfig: (config) => ({ ...config, format: 'esm' }),
  },
];
