/**
 * The `lookup` hook given to every socket the sender opens: it resolves the name again, checks
 * every address under the target's policy and hands only checked addresses to the socket, so
 * the address actually dialled is the one checked (no DNS rebinding between check and connect).
 */
import type { LookupAddress, LookupOptions } from 'node:dns';
import type { AddressPolicy } from './ip-policy';
import type { HostResolver } from './resolver';
import { resolveAndCheck, type TargetRejection } from './target-policy';

/** Error handed to the socket when the connect-time check refuses an address. */
export class ConnectTargetRejectedError extends Error {
  /** Marker code, so the delivery maps it to `target_rejected`. */
  readonly code = 'ERR_CSPWATCH_TARGET_REJECTED';
  /** The refusal, with `stage: 'connect'`. */
  readonly rejection: TargetRejection;

  /** @param rejection - the refusal found at connect time */
  constructor(rejection: TargetRejection) {
    super(rejection.message);
    this.name = 'ConnectTargetRejectedError';
    this.rejection = rejection;
  }
}

type LookupCallback = (
  error: NodeJS.ErrnoException | null,
  address: string | LookupAddress[],
  family?: number,
) => void;

/**
 * Builds a `net.connect` `lookup` function that resolves with `resolver`, checks every
 * address under `policy`, and hands only checked addresses to the socket.
 */
export function createGuardedLookup(resolver: HostResolver, policy: AddressPolicy) {
  return (hostname: string, options: LookupOptions, callback: LookupCallback): void => {
    const name = hostname.endsWith('.') ? hostname.slice(0, -1) : hostname;
    resolveAndCheck(name, policy, resolver, 'connect').then(
      (checked) => {
        if ('allowed' in checked) {
          callback(new ConnectTargetRejectedError(checked), '', 0);
          return;
        }
        const all = checked
          .map((address) => ({ address, family: address.includes(':') ? 6 : 4 }))
          .filter((entry) => !options.family || entry.family === options.family);
        const first = all[0];
        if (!first) {
          const error: NodeJS.ErrnoException = new Error(`no address of family ${options.family}`);
          error.code = 'ENOTFOUND';
          callback(error, '', 0);
        } else if (options.all) callback(null, all);
        else callback(null, first.address, first.family);
      },
      (error: unknown) => callback(error as NodeJS.ErrnoException, '', 0),
    );
  };
}
