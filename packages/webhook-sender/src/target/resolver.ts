/**
 * Name resolution for the target policy: the injectable resolver type and the system default.
 */
import { lookup as dnsLookup } from 'node:dns/promises';

/**
 * Resolves a host name (no trailing dot) to all of its IPv4 and IPv6 addresses, as text.
 * Reject or return `[]` when the name does not resolve.
 *
 * @example
 * ```ts
 * const resolver: HostResolver = async (name) => (name === 'hooks.example.com' ? ['203.0.114.7'] : []);
 * ```
 */
export type HostResolver = (hostname: string) => Promise<readonly string[]>;

/** The default resolver: `dns.lookup` with `all: true` (A and AAAA, honours /etc/hosts). */
export const systemResolver: HostResolver = async (hostname) => {
  const records = await dnsLookup(hostname, { all: true, verbatim: true });
  return records.map((record) => record.address);
};
