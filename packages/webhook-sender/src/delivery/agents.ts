/**
 * The undici dispatchers of a sender: one `Agent` per address policy, each with the guarded
 * connect-time `lookup` and explicit connect, headers and body timeouts. No proxy is read from
 * the environment (a plain `Agent` never does), and TLS verification cannot be turned off, not
 * even by `NODE_TLS_REJECT_UNAUTHORIZED=0` (Node reads it only when the option is not given).
 */
import { Agent } from 'undici';
import type { ResolvedSenderOptions } from '../options';
import { createGuardedLookup } from '../target/guarded-lookup';
import type { AddressPolicy } from '../target/ip-policy';

/** The agents of one sender, created on first use. */
export interface GuardedAgents {
  /** The agent whose connect-time check enforces `policy`. */
  forPolicy(policy: AddressPolicy): Agent;
  /** Closes every agent (open keep-alive sockets included). */
  close(): Promise<void>;
}

/** Creates the lazily built agents of a sender. */
export function createGuardedAgents(
  options: Pick<ResolvedSenderOptions, 'resolver' | 'timeoutMs' | 'connectTimeoutMs'>,
): GuardedAgents {
  const agents = new Map<AddressPolicy, Agent>();
  return {
    forPolicy(policy) {
      let agent = agents.get(policy);
      if (!agent) {
        agent = new Agent({
          connect: {
            timeout: options.connectTimeoutMs,
            rejectUnauthorized: true,
            lookup: createGuardedLookup(options.resolver, policy),
          },
          headersTimeout: options.timeoutMs,
          bodyTimeout: options.timeoutMs,
        });
        agents.set(policy, agent);
      }
      return agent;
    },
    async close() {
      const open = [...agents.values()];
      agents.clear();
      await Promise.all(open.map((agent) => agent.close()));
    },
  };
}
