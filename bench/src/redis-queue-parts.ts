/**
 * Where our queue's Redis commands go, by part of the work: each command (a script's own call
 * and each command it runs) is put in a part by the key it touches, from the names our queue
 * gives its keys. Measured under MONITOR on a separate sample run.
 */
import type { RunResult } from './redis-delivery-run.js';
import { table } from './report.js';

/** The part of every key that is not one of ours: BullMQ's own. */
export const BULLMQ_PART = 'BullMQ (jobs, locks, events)';

/** Our parts, by a piece of the key name, first match wins. */
const PARTS: readonly (readonly [string, string])[] = [
  [':slots:{', 'in-flight cap (take and give back a slot, the waiting room)'],
  [':waiting-for-slot:{', 'in-flight cap (take and give back a slot, the waiting room)'],
  [':channel:{', 'channel state (read before the attempt, recordAttempt)'],
  [':alert-log:{', 'history: per-alert log'],
  [':history:{', 'history: per-channel stream'],
  [':parked', 'parking'],
];

/** The part a key belongs to. */
export function partOfKey(key: string): string {
  return PARTS.find(([piece]) => key.includes(piece))?.[1] ?? BULLMQ_PART;
}

/** Commands and round trips per delivery, by part, of a watched run. */
export interface PartsPerDelivery {
  /** Client round trips per delivery (the bench's polls left out). */
  readonly roundTrips: number;
  readonly rows: readonly { part: string; commands: number; roundTrips: number }[];
}

/** The watched run's commands per delivery by part; the bench's own polls taken from `pollPart`. */
export function perDeliveryParts(run: RunResult, pollPart: string): PartsPerDelivery {
  const watched = run.watched;
  if (!watched) throw new Error('redis section: the sample run was not watched');
  const rows = [...watched.parts].map(([part, counts]) => {
    const own = part === pollPart ? run.ownPolls : 0;
    return {
      part,
      commands: (counts.commands - own) / run.jobs,
      roundTrips: (counts.roundTrips - own) / run.jobs,
    };
  });
  rows.sort((a, b) => b.commands - a.commands);
  return { roundTrips: (watched.roundTrips - run.ownPolls) / run.jobs, rows };
}

/** The table of {@link perDeliveryParts}, with a total row. */
export function partsTable(parts: PartsPerDelivery): string {
  const total = parts.rows.reduce((sum, row) => sum + row.commands, 0);
  return table(
    ['part', 'commands per delivery (script-internal included)', 'round trips per delivery'],
    [
      ...parts.rows.map((row) => [row.part, row.commands.toFixed(2), row.roundTrips.toFixed(2)]),
      ['total', total.toFixed(2), parts.roundTrips.toFixed(2)],
    ],
  );
}
