/**
 * Requires an optional peer dependency (`@opentelemetry/api`, say) as seen from `from`, the
 * calling module's `import.meta.url`, so the user's own copy is found. `null` when it is not
 * installed, or on a runtime without `process.getBuiltinModule` (browsers, edge runtimes): the
 * feature it serves then stays off, silently. No static import of `node:module`, so bundlers
 * and Web builds never meet one.
 */
export function requireOptionalPeer<T>(name: string, from: string): T | null {
  const host = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
  if (typeof host?.getBuiltinModule !== 'function') return null;
  try {
    const { createRequire } = host.getBuiltinModule('node:module') as typeof import('node:module');
    return createRequire(from)(name) as T;
  } catch {
    return null;
  }
}
