import type { CspwatchEvent } from '../alerts/payloads';
import type { ReplayClaim } from './guard';

const REGISTRY = Symbol.for('@cspwatch/webhooks.replayClaims');

/**
 * Claims taken by the per-request adapters (`verifyRequest`, `verifyNextApiRequest`), by the
 * event they returned. One map on `globalThis`, shared by every entry of the package (each
 * bundles its own copy of this module), so `releaseReplayClaim` from any entry finds it.
 */
function registry(): WeakMap<object, ReplayClaim> {
  const holder = globalThis as { [REGISTRY]?: WeakMap<object, ReplayClaim> };
  let claims = holder[REGISTRY];
  if (claims === undefined) {
    claims = new WeakMap();
    Object.defineProperty(holder, REGISTRY, { value: claims });
  }
  return claims;
}

/** Records the claim an adapter took for the event it hands back. */
export function rememberClaim(event: CspwatchEvent, claim: ReplayClaim): void {
  registry().set(event, claim);
}

/**
 * Releases the replay claim that `verifyRequest` or `verifyNextApiRequest` took for `event`
 * (the object it returned), so the sender's retry of a delivery your handler failed on is
 * accepted. Does nothing when the event holds no claim. (`guard.claim` returns its claim;
 * call `claim.release()` on it. The middleware adapters release on their own.)
 *
 * @example
 * ```ts
 * const event = await verifyRequest(request, { secret, replay: guard });
 * try { await saveAlert(event); } catch (error) { await releaseReplayClaim(event); throw error; }
 * ```
 */
export async function releaseReplayClaim(event: CspwatchEvent): Promise<void> {
  const claims = registry();
  const claim = claims.get(event);
  if (claim === undefined) return;
  claims.delete(event);
  await claim.release();
}
