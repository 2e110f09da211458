import { describe, expect, it } from 'vitest';
import { requireOptionalPeer } from '../src/index';

describe('requireOptionalPeer', () => {
  it('loads a package installed where `from` stands', () => {
    const zod = requireOptionalPeer<{ z: { string: unknown } }>('zod', import.meta.url);
    expect(typeof zod?.z.string).toBe('function');
  });

  it('answers null for a package that is not installed, without throwing or printing', () => {
    expect(requireOptionalPeer('@cspwatch/no-such-package', import.meta.url)).toBeNull();
  });

  it('answers null on a runtime without process.getBuiltinModule', () => {
    const original = process.getBuiltinModule;
    Object.defineProperty(process, 'getBuiltinModule', { value: undefined, configurable: true });
    try {
      expect(requireOptionalPeer('zod', import.meta.url)).toBeNull();
    } finally {
      Object.defineProperty(process, 'getBuiltinModule', { value: original, configurable: true });
    }
  });
});
