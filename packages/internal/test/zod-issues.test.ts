import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { issuesFromZod } from '../src/index';

const schema = z.strictObject({
  timeoutMs: z.number().int().min(1).optional(),
  history: z.strictObject({ maxEntries: z.number().int().max(10).optional() }).optional(),
  name: z.string(),
});

describe('issuesFromZod', () => {
  it('turns real zod issues into dotted paths with our codes, one per unknown key', () => {
    const result = schema.safeParse({
      timeoutMs: 0,
      history: { maxEntries: 11, extra: 1 },
      name: 5,
      typo: 1,
    });
    expect(result.success).toBe(false);
    const issues = issuesFromZod(result.error?.issues ?? []);
    expect(issues.map(({ path, code }) => `${path} ${code}`).sort()).toEqual([
      'history.extra unknown_option',
      'history.maxEntries out_of_range',
      'name wrong_type',
      'timeoutMs out_of_range',
      'typo unknown_option',
    ]);
    for (const { message } of issues) expect(message.length).toBeGreaterThan(0);
  });

  it('names the root for an issue with an empty path', () => {
    const result = schema.safeParse('not options');
    expect(issuesFromZod(result.error?.issues ?? [])).toEqual([
      expect.objectContaining({ path: '(options)', code: 'wrong_type' }),
    ]);
  });
});
