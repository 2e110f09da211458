import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MIN_SECRET_LENGTH } from '../constants';
import { isWebhookVerificationError } from '../errors';
import { normalizeSecrets, secretProblem } from './secret-rule';

describe('secretProblem', () => {
  it('accepts exactly the strings of 8+ code points', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 24 }), (secret) => {
        const valid = [...secret].length >= MIN_SECRET_LENGTH;
        expect(secretProblem(secret) === undefined).toBe(valid);
      }),
    );
  });

  it('counts code points, not UTF-16 units', () => {
    expect(secretProblem('🔑'.repeat(8))).toBeUndefined();
    expect(secretProblem('🔑'.repeat(7))).toBe('Secrets must be strings of 8+ characters');
    expect(secretProblem('1234567')).toBe('Secrets must be strings of 8+ characters');
  });

  it('says an unset variable is the likely cause of a missing secret', () => {
    expect(secretProblem(undefined)).toMatch(/missing: an unset environment variable/);
    expect(secretProblem(12345678)).toBe('Secrets must be strings of 8+ characters');
  });

  it('is the rule normalizeSecrets applies, one secret or a list', () => {
    expect(normalizeSecrets('12345678')).toEqual(['12345678']);
    expect(normalizeSecrets(['12345678', 'abcdefgh'])).toEqual(['12345678', 'abcdefgh']);
    for (const bad of ['short', [], ['12345678', 'short'], undefined, {}]) {
      let caught: unknown;
      try {
        normalizeSecrets(bad);
      } catch (error) {
        caught = error;
      }
      expect(isWebhookVerificationError(caught) && caught.code).toBe('invalid_secret');
    }
  });
});
