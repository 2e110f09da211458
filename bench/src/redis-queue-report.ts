/**
 * The tables of the Redis queue section: cost per delivery of each worker setup, the
 * commands that make up the Redis cost, the capacity projected from the costs, and fairness.
 */
import type { FairnessResult } from './redis-fairness.js';
import type { RedisCost } from './redis-stats.js';
import { formatRatio, median, table } from './report.js';

/** One worker setup's figures over the rounds: costs summed, per-round values for medians. */
export interface SetupFigures {
  readonly label: string;
  /** Deliveries over all rounds (the divisor of the summed costs). */
  readonly deliveries: number;
  readonly enqueue: RedisCost;
  readonly delivery: RedisCost;
  /** Per round, seconds: worker CPU per delivery, Redis CPU per delivery (both phases). */
  readonly workerCpu: readonly number[];
  readonly redisCpu: readonly number[];
  /** Per round, deliveries/s (for the record: the machine is shared). */
  readonly rates: readonly number[];
}

/** Seconds as microseconds, one decimal. */
export const micros = (seconds: number) => `${(seconds * 1e6).toFixed(1)} µs`;
const perDelivery = (count: number, deliveries: number) => (count / deliveries).toFixed(2);
const perCoreSecond = (seconds: number) => `${Math.round(1 / seconds).toLocaleString('en')}/s`;

/** Commands, Redis CPU and worker CPU per delivery, and deliveries/s, of each setup. */
export function costTable(setups: readonly SetupFigures[]): string {
  return table(
    [
      'setup',
      'Redis commands per delivery (enqueue + delivery)',
      'Redis CPU per delivery',
      'worker CPU per delivery',
      'deliveries/s (record only)',
    ],
    setups.map((s) => [
      s.label,
      `${perDelivery(s.enqueue.commands + s.delivery.commands, s.deliveries)} (${perDelivery(s.enqueue.commands, s.deliveries)} + ${perDelivery(s.delivery.commands, s.deliveries)})`,
      micros(median(s.redisCpu)),
      micros(median(s.workerCpu)),
      median(s.rates).toFixed(0),
    ]),
  );
}

/**
 * The commands Redis ran per delivery, one setup against a reference (by default ours against
 * the floor): the 10 most frequent of the first.
 */
export function commandBreakdown(
  ours: SetupFigures,
  floor: SetupFigures,
  columns: readonly [string, string] = ['ours per delivery', 'floor per delivery'],
): string {
  const callsOf = (s: SetupFigures) => {
    const calls = new Map(s.enqueue.calls);
    for (const [name, count] of s.delivery.calls) calls.set(name, (calls.get(name) ?? 0) + count);
    return calls;
  };
  const [oursCalls, floorCalls] = [callsOf(ours), callsOf(floor)];
  const names = [...new Set([...oursCalls.keys(), ...floorCalls.keys()])].sort(
    (a, b) => (oursCalls.get(b) ?? 0) - (oursCalls.get(a) ?? 0),
  );
  const row = (name: string, o: number, f: number) => [
    name,
    perDelivery(o, ours.deliveries),
    perDelivery(f, floor.deliveries),
    (o / ours.deliveries - f / floor.deliveries).toFixed(2),
  ];
  const sum = (calls: Map<string, number>, keep: (name: string) => boolean) =>
    [...calls].reduce((total, [name, count]) => total + (keep(name) ? count : 0), 0);
  const top = new Set(names.slice(0, 10));
  return table(
    ['command', ...columns, 'difference'],
    [
      ...names.slice(0, 10).map((n) => row(n, oursCalls.get(n) ?? 0, floorCalls.get(n) ?? 0)),
      row(
        `all others (${Math.max(0, names.length - 10)})`,
        sum(oursCalls, (n) => !top.has(n)),
        sum(floorCalls, (n) => !top.has(n)),
      ),
      row(
        'total',
        sum(oursCalls, () => true),
        sum(floorCalls, () => true),
      ),
    ],
  );
}

/**
 * Deliveries/s one core could sustain, from the measured costs: per Redis core
 * 1 / (Redis CPU s per delivery), per worker core 1 / (worker CPU s per delivery).
 */
export function projectionTable(setups: readonly SetupFigures[]): string {
  return table(
    [
      'setup',
      'Redis CPU per delivery',
      'deliveries/s per Redis core',
      'worker CPU per delivery',
      'deliveries/s per worker core',
    ],
    setups.map((s) => {
      const [redis, worker] = [median(s.redisCpu), median(s.workerCpu)];
      return [s.label, micros(redis), perCoreSecond(redis), micros(worker), perCoreSecond(worker)];
    }),
  );
}

/**
 * Healthy deliveries/s and the worker's CPU per healthy delivery, without and with the
 * hanging channel, per round, and the ratios.
 */
export function fairnessTable(fairness: FairnessResult, ratio: number, cpuRatio: number): string {
  if (!fairness.ran) return `Fairness: ${fairness.reason}.`;
  const rows = fairness.without.map((rate, round) => [
    String(round + 1),
    rate.toFixed(0),
    fairness.with[round]!.toFixed(0),
    formatRatio(fairness.with[round]! / rate),
    micros(fairness.cpuWithout[round]!),
    micros(fairness.cpuWith[round]!),
    formatRatio(fairness.cpuWithout[round]! / fairness.cpuWith[round]!),
  ]);
  rows.push(['median of the rounds', '', '', formatRatio(ratio), '', '', formatRatio(cpuRatio)]);
  return table(
    [
      'round',
      'healthy deliveries/s, no hanging channel',
      'with the hanging channel',
      'with / without',
      'worker CPU per healthy delivery, no hanging channel',
      'with it',
      'without / with',
    ],
    rows,
  );
}
