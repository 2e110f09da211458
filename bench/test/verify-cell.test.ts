import { describe, expect, it } from 'vitest';
import type { GroupResult } from '../src/measure.js';
import { deserializeGroup, serializeGroup } from '../src/verify-cell.js';

describe('group results across the process boundary', () => {
  it('survive JSON (as IPC sends them) with every round, call count and clock', () => {
    const result: GroupResult = {
      rounds: 2,
      perRound: new Map([
        ['floor', [10, 11]],
        ['ours', [12, 13]],
      ]),
      calls: new Map([
        ['floor', 100],
        ['ours', 90],
      ]),
      cpu: {
        perRound: new Map([
          ['floor', [9, 10]],
          ['ours', [11, 12]],
        ]),
      },
    };
    const back = deserializeGroup(JSON.parse(JSON.stringify(serializeGroup(result))));
    expect(back).toEqual(result);
  });
});
