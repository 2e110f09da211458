/**
 * Classification of one IP address for the target policy. Uses ipaddr.js `range()` names,
 * plus explicit CIDR lists (the blocks the target policy names) that are checked as well, so the verdict does not
 * depend on how a future ipaddr.js version names or splits its ranges.
 */
import ipaddr from 'ipaddr.js';

/**
 * Which addresses a connection may reach.
 * - `public`: public unicast only (the default).
 * - `public_or_loopback`: public unicast, plus 127.0.0.0/8 and ::1 (loopback opt-in, https).
 * - `loopback_only`: 127.0.0.0/8 and ::1 only (loopback opt-in with `http:` or `localhost`).
 */
export type AddressPolicy = 'public' | 'public_or_loopback' | 'loopback_only';

/** Why an address is refused. */
export type AddressRejection =
  | 'invalid_address'
  | 'ipv4_not_public'
  | 'ipv6_not_public'
  | 'ipv6_embeds_ipv4'
  | 'not_loopback';

/** The verdict on one address: allowed, or refused with a reason and the range it fell in. */
export type AddressVerdict =
  | { readonly allowed: true; readonly family: 4 | 6; readonly loopback: boolean }
  | { readonly allowed: false; readonly reason: AddressRejection; readonly range: string };

const cidrs = (list: readonly string[]) =>
  list.map((cidr) => [cidr, ipaddr.parseCIDR(cidr)] as const);

/** Every IANA special-purpose IPv4 block the target policy refuses (ipaddr.js names all of them today). */
const IPV4_DENIED = cidrs([
  '0.0.0.0/8',
  '10.0.0.0/8',
  '100.64.0.0/10',
  '127.0.0.0/8',
  '169.254.0.0/16',
  '172.16.0.0/12',
  '192.0.0.0/24',
  '192.0.2.0/24',
  '192.88.99.0/24',
  '192.168.0.0/16',
  '198.18.0.0/15',
  '198.51.100.0/24',
  '203.0.113.0/24',
  '224.0.0.0/4',
  '240.0.0.0/4',
  '255.255.255.255/32',
]);

/** Global unicast: the only IPv6 space accepted. ipaddr.js has no name for it. */
const IPV6_GLOBAL_UNICAST = ipaddr.parseCIDR('2000::/3');

/** Carved out of 2000::/3 by the target policy (TEREDO/IETF protocol, documentation, 6to4, documentation). */
const IPV6_DENIED = cidrs(['2001::/23', '2001:db8::/32', '2002::/16', '3fff::/20']);

/** ipaddr.js range names of IPv6 forms that carry an IPv4 address inside. */
const IPV6_EMBEDDING_RANGES = new Set(['ipv4Mapped', 'rfc6145', 'rfc6052', '6to4', 'teredo']);

const rejected = (reason: AddressRejection, range: string): AddressVerdict => ({
  allowed: false,
  reason,
  range,
});

function classifyIPv4(address: ipaddr.IPv4, policy: AddressPolicy): AddressVerdict {
  const range = address.range();
  if (range === 'loopback' && policy !== 'public') {
    return { allowed: true, family: 4, loopback: true };
  }
  if (policy === 'loopback_only') return rejected('not_loopback', range);
  if (range !== 'unicast') return rejected('ipv4_not_public', range);
  const denied = IPV4_DENIED.find(([, block]) => address.match(block));
  if (denied) return rejected('ipv4_not_public', denied[0]);
  return { allowed: true, family: 4, loopback: false };
}

function embedsIPv4(address: ipaddr.IPv6): boolean {
  if (IPV6_EMBEDDING_RANGES.has(address.range())) return true;
  // IPv4-compatible ::a.b.c.d (deprecated, RFC 4291): first 96 bits zero, other than :: and ::1.
  const [a, b, c, d, e, f, g, h] = address.parts;
  return a === 0 && b === 0 && c === 0 && d === 0 && e === 0 && f === 0 && (g !== 0 || h! > 1);
}

function classifyIPv6(address: ipaddr.IPv6, policy: AddressPolicy): AddressVerdict {
  const range = address.range();
  if (range === 'loopback' && policy !== 'public') {
    return { allowed: true, family: 6, loopback: true };
  }
  if (policy === 'loopback_only') return rejected('not_loopback', range);
  if (embedsIPv4(address)) return rejected('ipv6_embeds_ipv4', range);
  if (!address.match(IPV6_GLOBAL_UNICAST)) return rejected('ipv6_not_public', range);
  if (range !== 'unicast') return rejected('ipv6_not_public', range);
  const denied = IPV6_DENIED.find(([, block]) => address.match(block));
  if (denied) return rejected('ipv6_not_public', denied[0]);
  return { allowed: true, family: 6, loopback: false };
}

/**
 * Judges one textual IP address (dotted-quad IPv4 or IPv6, no brackets) under a policy.
 * Anything else, including shorthand IPv4 forms, is `invalid_address`: URLs are normalised by
 * the WHATWG parser before they get here, and resolvers answer in canonical form.
 */
export function classifyAddress(address: string, policy: AddressPolicy): AddressVerdict {
  if (ipaddr.IPv4.isValidFourPartDecimal(address)) {
    return classifyIPv4(ipaddr.IPv4.parse(address), policy);
  }
  if (ipaddr.IPv6.isValid(address)) return classifyIPv6(ipaddr.IPv6.parse(address), policy);
  return rejected('invalid_address', 'invalid');
}
