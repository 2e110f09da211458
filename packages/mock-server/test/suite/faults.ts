import { describe, expect, it } from 'vitest';
import { signedPost } from '../signed-post';
import type { SuiteContext } from './context';

/** Fault injection: 429 with Retry-After, 5xx, dropped connections, latency. */
export function faultsTests(s: SuiteContext): void {
  const { list, expectProblem } = s;
  describe('fault injection', () => {
    it('answers every Nth REST request with 429 and Retry-After', async () => {
      s.harness.service.setFaults({ rateLimitEvery: 3, retryAfterSeconds: 7 });
      const statuses: number[] = [];
      for (let index = 0; index < 6; index++) {
        const response = await list('?limit=1');
        statuses.push(response.status);
        if (response.status === 429) {
          expect(response.headers.get('retry-after')).toBe('7');
          await expectProblem(response, 429, 'rate_limited');
        }
      }
      expect(statuses).toEqual([200, 200, 429, 200, 200, 429]);
    });

    it('answers with the configured 5xx at rate 1, and never at rate 0', async () => {
      s.harness.service.setFaults({ serverErrorRate: 1, serverErrorStatus: 502 });
      await expectProblem(await list(), 502, 'server_error');
      s.harness.service.setFaults({ serverErrorRate: 0 });
      expect((await list()).status).toBe(200);
    });

    it('drops the connection at rate 1', async () => {
      s.harness.service.setFaults({ dropConnectionRate: 1 });
      await expect(list()).rejects.toThrow(TypeError);
    });

    it('adds latency before answering', async () => {
      s.harness.service.setFaults({ latencyMs: 60 });
      const started = performance.now();
      expect((await list('?limit=1')).status).toBe(200);
      expect(performance.now() - started).toBeGreaterThanOrEqual(55);
    });

    it('is off after reset and never touches the inbox', async () => {
      s.harness.service.setFaults({ serverErrorRate: 1 });
      const channel = s.harness.service.inbox.createChannel({ secret: 'inbox-secret-1' });
      const delivery = await signedPost({ secret: 'inbox-secret-1' });
      expect((await fetch(channel.url, delivery)).status).toBe(200);
      s.harness.service.reset();
      expect((await list()).status).toBe(200);
    });
  });
}
