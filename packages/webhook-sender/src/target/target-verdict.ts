/**
 * The types of the target policy: its options, the reason codes and the verdicts.
 */
import type { HostNameRejection } from './host-name';
import type { AddressPolicy, AddressRejection } from './ip-policy';
import type { HostResolver } from './resolver';

/** Options of the target policy. Both default to the safe setting. */
export interface TargetPolicyOptions {
  /**
   * Allow 127.0.0.0/8 and ::1 (and `localhost` names resolving only there), and `http:` for
   * those hosts only. For testing a receiver on your own machine; never in production.
   * @default false
   */
  readonly dangerouslyAllowLoopback?: boolean;
  /**
   * Resolves a host name to all its IPv4 and IPv6 addresses (injectable for tests).
   * @default the system resolver, `dns.lookup(name, { all: true })`
   */
  readonly resolver?: HostResolver;
}

/** Why a target URL is refused: URL shape, host name rules, or an address (literal or resolved). */
export type TargetRejectionReason =
  | 'invalid_url'
  | 'scheme_not_allowed'
  | 'userinfo_not_allowed'
  | 'port_not_allowed'
  | HostNameRejection
  | AddressRejection
  | 'resolution_failed'
  | 'no_addresses';

/** A refusal: the reason code, a sentence saying what to fix, and the offending address if any. */
export interface TargetRejection {
  /** Always `false`. */
  readonly allowed: false;
  /** Stable reason code to `switch` on. */
  readonly reason: TargetRejectionReason;
  /** What is wrong, naming the host but never the path, query or userinfo. */
  readonly message: string;
  /** Where it was caught: parsing the URL, resolving the name, or connecting. */
  readonly stage: 'url' | 'resolve' | 'connect';
  /** The address refused, when an address was the problem. */
  readonly address?: string;
  /** The ipaddr.js range name or CIDR block the address fell in. */
  readonly range?: string;
}

/** An accepted target after the static checks (no DNS yet). */
export interface StaticTargetAcceptance {
  /** Always `true`. */
  readonly allowed: true;
  /** The parsed URL: exactly what is delivered to. */
  readonly url: URL;
  /** `ip` for an IP-literal host (final verdict), `name` for a name still to resolve. */
  readonly hostKind: 'ip' | 'name';
  /** Host without brackets and without the trailing dot. */
  readonly host: string;
  /** Which addresses a connection to this target may reach. */
  readonly addressPolicy: AddressPolicy;
}

/** An accepted target after resolution, with the addresses checked. */
export interface TargetAcceptance extends StaticTargetAcceptance {
  /** Every address checked (the literal itself for an IP host). */
  readonly addresses: readonly string[];
}

/** Result of {@link checkWebhookTargetStatic}. */
export type StaticTargetVerdict = StaticTargetAcceptance | TargetRejection;
/** Result of {@link checkWebhookTarget}. */
export type TargetVerdict = TargetAcceptance | TargetRejection;
