/** The listing order of API keys: newest first, ties broken by id. */
import type { MockApiKey } from './resources';

/** Orders keys newest first, ties broken by id, descending: the listing's stable sort key. */
export function compareKeys(a: MockApiKey, b: MockApiKey): number {
  const byTime = Date.parse(b.createdAt) - Date.parse(a.createdAt);
  return byTime !== 0 ? byTime : a.id < b.id ? 1 : a.id > b.id ? -1 : 0;
}

/** Whether a key comes after a keyset position in the newest-first order of {@link compareKeys}. */
export function isAfterPosition(
  key: MockApiKey,
  position: { createdAtMs: number; id: string },
): boolean {
  const time = Date.parse(key.createdAt);
  return time < position.createdAtMs || (time === position.createdAtMs && key.id < position.id);
}
