import { describe, expect, it } from 'vitest';
import type { InboxDelivery } from '../inbox/types';
import { countVerdicts, verdictOf } from './verdict';

const delivery = (verified: boolean, errorCode?: string): InboxDelivery => ({
  receivedAt: '2026-01-01T00:00:00.000Z',
  headers: {},
  rawBody: '{}',
  verified,
  status: verified ? 200 : 400,
  ...(errorCode === undefined ? {} : { errorCode }),
});

describe('verdictOf and countVerdicts', () => {
  it('names a delivery accepted, a replay, or refused with the check that failed', () => {
    expect(verdictOf(delivery(true))).toEqual({ kind: 'accepted', label: 'accepted' });
    expect(verdictOf(delivery(false, 'replayed_delivery'))).toEqual({
      kind: 'replay',
      label: 'replay',
    });
    expect(verdictOf(delivery(false, 'timestamp_too_old'))).toEqual({
      kind: 'refused',
      label: 'refused: timestamp_too_old',
    });
  });

  it('counts each verdict, refusals by code, most frequent first', () => {
    const counts = countVerdicts([
      delivery(true),
      delivery(false, 'signature_mismatch'),
      delivery(false, 'timestamp_too_old'),
      delivery(false, 'signature_mismatch'),
      delivery(false, 'replayed_delivery'),
      delivery(true),
    ]);
    expect(counts).toEqual({
      total: 6,
      accepted: 2,
      replay: 1,
      refused: [
        ['signature_mismatch', 2],
        ['timestamp_too_old', 1],
      ],
    });
    expect(countVerdicts([])).toEqual({ total: 0, accepted: 0, replay: 0, refused: [] });
  });
});
