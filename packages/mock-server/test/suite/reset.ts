import { expect, it } from 'vitest';
import type { SuiteContext } from './context';

/** Reset restores the seeded state. */
export function resetTests(s: SuiteContext): void {
  const { tokens, main, create } = s;
  it('reset restores the seeded state', async () => {
    const before = s.harness.service.store.snapshot();
    const tokensBefore = tokens();
    await create({ name: 'x', url: 'https://x.example' });
    s.harness.service.store.addApiKey(main(), { name: 'temp' });
    s.harness.service.store.deleteApiKey(before.apiKeys[0]!.id);
    s.harness.service.reset();
    expect(s.harness.service.store.snapshot()).toEqual(before);
    expect(tokens()).toEqual(tokensBefore);
  });
}
