/**
 * `pnpm bench`: runs every section, prints the Markdown and writes it to
 * bench/results/latest.md (with `--quick`: short runs to check the bench works, written to
 * bench/results/quick.md.tmp, git-ignored, so the committed figures are never replaced by
 * rough ones). `--only=verify,client` runs some sections: their rows and tables replace their
 * own in bench/RESULTS.md, bench/README.md and results/latest.md, the other sections' stay. The verify section also writes its
 * cells to bench/results/verify-cells.json (git-ignored) for `pnpm compare` (src/compare.ts).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { FULL_BUDGET, QUICK_BUDGET } from './measure.js';
import { replaceSectionPart, replaceTargetRows } from './partial-results.js';
import { readReadmeBlock, updateReadmeBlock } from './readme-block.js';
import { type SectionResult, targetsTable } from './report.js';

const args = process.argv.slice(2);
const quick = args.includes('--quick');
const only = args
  .find((arg) => arg.startsWith('--only='))
  ?.slice('--only='.length)
  .split(',');
const budget = quick ? QUICK_BUDGET : FULL_BUDGET;

// Each section is imported when it runs, so a package that is not built fails its section only.
const SECTIONS: Record<string, () => Promise<SectionResult>> = {
  verify: async () => (await import('./verify-bench.js')).runVerifyBench(budget),
  replay: async () => (await import('./replay-bench.js')).runReplayBench(budget),
  client: async () => (await import('./client-bench.js')).runClientBench(quick),
  sender: async () => (await import('./sender-bench.js')).runSenderBench(quick),
  'mock-speed': async () => (await import('./mock-speed-bench.js')).runMockSpeedBench(quick),
  redis: async () => (await import('./redis-queue-bench.js')).runRedisQueueBench(quick),
  'redis-cluster': async () =>
    (await import('./redis-cluster-bench.js')).runRedisClusterBench(quick),
  'tracing-off': async () => (await import('./tracing-off-bench.js')).runTracingOffBench(quick),
  size: async () => (await import('./bundle-size.js')).runBundleSizeBench(),
};

async function main(): Promise<void> {
  const started = Date.now();
  const results: SectionResult[] = [];
  for (const [name, run] of Object.entries(SECTIONS)) {
    if (only && !only.includes(name)) continue;
    const t0 = Date.now();
    try {
      results.push(await run());
    } catch (error) {
      const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
      results.push({
        title: `${name} (did not run)`,
        markdown: `The section failed:\n\n\`\`\`\n${message.slice(0, 1500)}\n\`\`\``,
        targets: [
          { section: name, target: 'section ran', value: 'error', limit: 'runs', pass: false },
        ],
      });
    }
    process.stderr.write(`${name}: ${((Date.now() - t0) / 1000).toFixed(1)} s\n`);
  }
  const cpu = cpus();
  const machine = `${cpu[0]?.model ?? 'unknown CPU'}, ${cpu.length} cores, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, ${process.platform}-${process.arch}`;
  const targets = results.flatMap((result) => result.targets);
  const seconds = ((Date.now() - started) / 1000).toFixed(0);
  const measuredLine = `Measured ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC with Node ${process.version} on ${machine}${quick ? ' — QUICK RUN: rough figures, not for comparison' : ''}; the whole run took ${seconds} s (budget 300 s).`;
  const markdown = [
    '# cspwatch SDK benchmarks',
    '',
    measuredLine,
    '',
    '## Targets',
    '',
    targetsTable(targets),
    '',
    ...results.flatMap((result) => [`## ${result.title}`, '', result.markdown, '']),
  ].join('\n');
  console.log(markdown);
  const here = dirname(fileURLToPath(import.meta.url));
  const file = quick || only ? 'quick.md.tmp' : 'latest.md';
  writeFileSync(join(here, '..', 'results', file), markdown);
  // The fragment for bench/RESULTS.md: date and machine, targets, the short tables (links are
  // relative to bench/, where RESULTS.md lives).
  const summary = [
    '### Benchmarks',
    '',
    `${measuredLine} Full tables and method: [results/latest.md](results/latest.md), [README.md](README.md).`,
    '',
    targetsTable(targets),
    '',
    'Verify ratios are medians of per-round ratios of tasks timed in the same round (interleaved rounds, wall clock); see the methodology in bench/README.md.',
    '',
    ...results.flatMap((result) => (result.summary ? [result.summary, ''] : [])),
  ].join('\n');
  writeFileSync(
    join(here, '..', 'results', quick || only ? 'summary.md.tmp' : 'summary.md'),
    summary,
  );
  if (file === 'latest.md') {
    updateReadmeBlock(
      join(here, '..', 'README.md'),
      'bench-targets',
      `${measuredLine}\n\n${targetsTable(targets)}`,
    );
    // bench/RESULTS.md shows the same fragment, without its heading; the root README links it.
    updateReadmeBlock(
      join(here, '..', 'RESULTS.md'),
      'bench-summary',
      summary.split('\n').slice(2).join('\n'),
    );
  }
  const failed = targets.some((target) => target.value === 'error');
  if (failed && only && !quick) {
    process.stderr.write('a section did not run: the committed figures are left as they were\n');
  }
  if (only && !quick && !failed) {
    const sections = new Set([...only, ...targets.map((target) => target.section)]);
    const rows = targetsTable(targets).split('\n').slice(2);
    const when = measuredLine.replace(/^Measured /, '').replace(/; the whole run.*$/, '');
    const note = `Re-measured with \`--only=${only.join(',')}\`: the rows of ${[...sections].join(', ')}, ${when}.`;
    const edit = (text: string) => replaceTargetRows(text, sections, rows, note);
    for (const [name, block] of [
      ['RESULTS.md', 'bench-summary'],
      ['README.md', 'bench-targets'],
    ] as const) {
      const path = join(here, '..', name);
      const old = readReadmeBlock(path, block);
      if (old !== undefined) updateReadmeBlock(path, block, edit(old));
    }
    const latest = join(here, '..', 'results', 'latest.md');
    let page = edit(readFileSync(latest, 'utf8'));
    for (const result of results) page = replaceSectionPart(page, result.title, result.markdown);
    writeFileSync(latest, page);
  }
  process.stderr.write(`written to bench/results/${file}; total ${seconds} s\n`);
  // A missed target is a finding, reported above; only a section that could not run fails.
  process.exitCode = targets.some((target) => target.value === 'error') ? 1 : 0;
}

await main();
