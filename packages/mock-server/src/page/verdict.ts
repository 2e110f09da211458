/**
 * The verdict of an inbox delivery as the page shows and counts it: accepted, refused (with
 * the check that failed), or a replay. One home for the words, so the badges and the counts
 * cannot disagree.
 */
import type { InboxDelivery } from '../inbox/types';

/** The three kinds of verdict. */
export type VerdictKind = 'accepted' | 'refused' | 'replay';

/** A delivery's verdict: its kind and the badge text. */
export interface Verdict {
  /** Which kind, also the badge's CSS class. */
  kind: VerdictKind;
  /** `accepted`, `replay`, or `refused: <code>`. */
  label: string;
}

/** The verdict of one delivery. */
export function verdictOf(delivery: InboxDelivery): Verdict {
  if (delivery.verified) return { kind: 'accepted', label: 'accepted' };
  if (delivery.errorCode === 'replayed_delivery') return { kind: 'replay', label: 'replay' };
  return { kind: 'refused', label: `refused: ${delivery.errorCode ?? 'unknown'}` };
}

/** How many deliveries got each verdict, refusals also by the check that failed. */
export interface VerdictCounts {
  /** Every delivery. */
  total: number;
  /** Verified and not replays. */
  accepted: number;
  /** Replays of a request received before (`409`). */
  replay: number;
  /** Refused by a check, most frequent first: `[code, count]`. */
  refused: [string, number][];
}

/** Counts the verdicts of `deliveries`. */
export function countVerdicts(deliveries: readonly InboxDelivery[]): VerdictCounts {
  const refused = new Map<string, number>();
  let accepted = 0;
  let replay = 0;
  for (const delivery of deliveries) {
    const { kind } = verdictOf(delivery);
    if (kind === 'accepted') accepted++;
    else if (kind === 'replay') replay++;
    else {
      const code = delivery.errorCode ?? 'unknown';
      refused.set(code, (refused.get(code) ?? 0) + 1);
    }
  }
  return {
    total: deliveries.length,
    accepted,
    replay,
    refused: [...refused].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])),
  };
}
