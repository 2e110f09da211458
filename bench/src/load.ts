/**
 * A small closed-loop HTTP load generator: `connections` workers on one undici Pool (one
 * keep-alive connection each) send a fixed number of GET requests in total and time each.
 */
import { Pool } from 'undici';

/** The `q` quantile (0 to 1) of `values`, nearest rank. */
export function percentile(values: readonly number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? Number.NaN;
}

/** What one load run measured. */
export interface LoadResult {
  requests: number;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  errors: number;
}

/** Sends `total` GETs to `url` over `connections` connections; every response body is read. */
export async function runLoad(
  url: string,
  headers: Record<string, string>,
  total: number,
  connections: number,
): Promise<LoadResult> {
  const target = new URL(url);
  const pool = new Pool(target.origin, { connections, pipelining: 1 });
  const path = target.pathname + target.search;
  const latencies: number[] = [];
  let sent = 0;
  let errors = 0;
  const worker = async () => {
    while (sent < total) {
      sent++;
      const start = process.hrtime.bigint();
      try {
        const { statusCode, body } = await pool.request({ method: 'GET', path, headers });
        await body.arrayBuffer();
        if (statusCode !== 200) errors++;
      } catch {
        errors++;
      }
      latencies.push(Number(process.hrtime.bigint() - start) / 1e6);
    }
  };
  const started = process.hrtime.bigint();
  await Promise.all(Array.from({ length: connections }, worker));
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  await pool.close();
  return {
    requests: latencies.length,
    requestsPerSecond: latencies.length / seconds,
    p50Ms: percentile(latencies, 0.5),
    p99Ms: percentile(latencies, 0.99),
    errors,
  };
}
