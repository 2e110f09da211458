/**
 * The mock server's list endpoint under load: 20 concurrent keep-alive connections on
 * loopback, a fixed request count per run, against a bare node:http server that
 * `JSON.stringify`s the same page object per request. Each server runs in a child process
 * of its own (the load generator stays out of its CPU time); runs alternate bare/mock and
 * the ratio is the median of the per-round ratios.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type LoadResult, runLoad } from './load.js';
import { formatRatio, median, type SectionResult, table, verdict } from './report.js';

const here = dirname(fileURLToPath(import.meta.url));
const CONNECTIONS = 20;
const TARGET = 0.8;

/** CPU time (user + system) a process has used, in ms; `NaN` where /proc is not there. */
function cpuMs(pid: number | undefined): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10; // clock ticks of 10 ms
  } catch {
    return Number.NaN;
  }
}

async function startServer(mode: 'mock' | 'bare') {
  const child: ChildProcess = spawn(
    process.execPath,
    ['--import', 'tsx', join(here, 'mock-speed-server.ts'), mode],
    { cwd: join(here, '..'), stdio: ['ignore', 'pipe', 'inherit'] },
  );
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  const deadline = Date.now() + 30_000;
  while (!output.includes('\n')) {
    if (Date.now() > deadline || child.exitCode !== null)
      throw new Error(`${mode} server did not start`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const { url, token } = JSON.parse(output.split('\n')[0]!) as { url: string; token: string };
  return {
    url,
    pid: child.pid,
    headers: { authorization: `Bearer ${token}` },
    async stop() {
      child.kill('SIGTERM');
      if (child.exitCode === null) await once(child, 'exit');
    },
  };
}

/** Runs the mock-speed section. */
export async function runMockSpeedBench(quick: boolean): Promise<SectionResult> {
  const rounds = quick ? 2 : 5;
  const perRun = quick ? 2_000 : 10_000;
  const servers = { bare: await startServer('bare'), mock: await startServer('mock') };
  const results: Record<'bare' | 'mock', LoadResult[]> = { bare: [], mock: [] };
  const cpuPerRequest: Record<'bare' | 'mock', number[]> = { bare: [], mock: [] };
  try {
    for (const mode of ['bare', 'mock'] as const)
      await runLoad(servers[mode].url, servers[mode].headers, perRun / 4, CONNECTIONS); // warm-up
    for (let round = 0; round < rounds; round++) {
      const order = round % 2 === 0 ? (['bare', 'mock'] as const) : (['mock', 'bare'] as const);
      for (const mode of order) {
        process.stderr.write(`mock-speed: round ${round + 1}/${rounds} ${mode}\n`);
        const cpuBefore = cpuMs(servers[mode].pid);
        results[mode].push(
          await runLoad(servers[mode].url, servers[mode].headers, perRun, CONNECTIONS),
        );
        cpuPerRequest[mode].push(((cpuMs(servers[mode].pid) - cpuBefore) * 1000) / perRun);
      }
    }
  } finally {
    await Promise.all([servers.bare.stop(), servers.mock.stop()]);
  }
  const ratios = results.mock.map(
    (mock, index) => mock.requestsPerSecond / results.bare[index]!.requestsPerSecond,
  );
  const ratio = median(ratios);
  const row = (name: string, runs: LoadResult[], cpu: number[]) => [
    name,
    median(runs.map((run) => run.requestsPerSecond)).toFixed(0),
    `${median(runs.map((run) => run.p50Ms)).toFixed(1)} ms`,
    `${median(runs.map((run) => run.p99Ms)).toFixed(1)} ms`,
    Number.isFinite(median(cpu)) ? `${median(cpu).toFixed(0)} µs` : 'n/a',
    String(runs.reduce((sum, run) => sum + run.errors, 0)),
  ];
  const markdown = [
    table(
      ['server', 'req/s (median)', 'p50', 'p99', 'server CPU per request', 'errors'],
      [
        row('bare node:http + JSON.stringify', results.bare, cpuPerRequest.bare),
        row('@cspwatch/mock-server', results.mock, cpuPerRequest.mock),
      ],
    ),
    '',
    `Ratio mock / bare: ${formatRatio(ratio)} (median of ${rounds} paired rounds; per round: ${ratios.map(formatRatio).join(', ')}). ${verdict(ratio >= TARGET)}`,
    '',
    `GET /v1/workspaces/{id}/api-keys?limit=50 (200 keys seeded; a 50-key page, ~25 kB) with an admin bearer token, ${CONNECTIONS} keep-alive connections (undici Pool, closed loop), ${perRun.toLocaleString('en')} requests per run after a warm-up; each server in its own child process on 127.0.0.1.`,
  ].join('\n');
  return {
    title: 'Mock server: list endpoint under load',
    markdown,
    targets: [
      {
        section: 'mock-speed',
        target: `list endpoint req/s vs bare node:http at ${CONNECTIONS} connections`,
        value: formatRatio(ratio),
        limit: `>= ${TARGET}x`,
        pass: ratio >= TARGET,
      },
    ],
  };
}
