/**
 * The target policy of the sender (docs/webhook-sender-reference.md, "Target policy"): which
 * webhook URLs may be delivered to. The URL is judged as the WHATWG parser gives it; names are
 * resolved and every address checked. Messages name the host only, never the path or query
 * (webhook URLs often carry tokens there).
 */
import { judgeHostName } from './host-name';
import { type AddressPolicy, classifyAddress } from './ip-policy';
import { type HostResolver, systemResolver } from './resolver';
import type {
  StaticTargetVerdict,
  TargetPolicyOptions,
  TargetRejection,
  TargetRejectionReason,
  TargetVerdict,
} from './target-verdict';

export type {
  StaticTargetAcceptance,
  StaticTargetVerdict,
  TargetAcceptance,
  TargetPolicyOptions,
  TargetRejection,
  TargetRejectionReason,
  TargetVerdict,
} from './target-verdict';

const refuse = (
  reason: TargetRejectionReason,
  message: string,
  extra: Partial<Pick<TargetRejection, 'address' | 'range' | 'stage'>> = {},
): TargetRejection => ({ allowed: false, reason, message, stage: 'url', ...extra });

function judgeHost(url: URL, loopbackOptIn: boolean): StaticTargetVerdict {
  const ipLiteral = url.hostname.startsWith('[');
  const host = ipLiteral ? url.hostname.slice(1, -1) : url.hostname;
  const isIp = ipLiteral || /^\d+\.\d+\.\d+\.\d+$/.test(host);
  if (isIp) {
    const verdict = classifyAddress(host, loopbackOptIn ? 'public_or_loopback' : 'public');
    if (!verdict.allowed) {
      const message = `address ${host} is not a public unicast address (${verdict.range})`;
      return refuse(verdict.reason, message, { address: host, range: verdict.range });
    }
    const addressPolicy = verdict.loopback ? 'loopback_only' : 'public';
    return { allowed: true, url, hostKind: 'ip', host, addressPolicy };
  }
  const name = judgeHostName(host, loopbackOptIn);
  if (!name.allowed) return refuse(name.reason, name.message);
  const addressPolicy = name.localhost
    ? 'loopback_only'
    : loopbackOptIn
      ? 'public_or_loopback'
      : 'public';
  return { allowed: true, url, hostKind: 'name', host: name.name, addressPolicy };
}

/**
 * Checks a webhook URL without any DNS lookup: scheme, userinfo, port, host name rules and
 * IP literals in any notation. This is what channel create/edit validation runs.
 *
 * @example
 * ```ts
 * checkWebhookTargetStatic('https://2130706433/'); // { allowed: false, reason: 'ipv4_not_public', … }
 * ```
 */
export function checkWebhookTargetStatic(
  target: string | URL,
  options: TargetPolicyOptions = {},
): StaticTargetVerdict {
  const loopbackOptIn = options.dangerouslyAllowLoopback === true;
  let url: URL;
  try {
    url = new URL(String(target));
  } catch {
    return refuse('invalid_url', 'not an absolute URL the WHATWG URL parser accepts');
  }
  const http = url.protocol === 'http:' && loopbackOptIn;
  if (url.protocol !== 'https:' && !http) {
    return refuse('scheme_not_allowed', `scheme ${url.protocol} is not allowed; use https:`);
  }
  if (url.username !== '' || url.password !== '') {
    return refuse('userinfo_not_allowed', 'the URL must not contain a username or password');
  }
  if (url.port === '0') return refuse('port_not_allowed', 'port 0 is not allowed');
  const verdict = judgeHost(url, loopbackOptIn);
  if (http && verdict.allowed && verdict.addressPolicy !== 'loopback_only') {
    const message = 'http: is allowed only for loopback hosts (loopback opt-in); use https:';
    return refuse('scheme_not_allowed', message);
  }
  return verdict;
}

/**
 * Checks every address of a name against a policy; used at check time and at connect time.
 * Returns the addresses when all pass.
 */
export async function resolveAndCheck(
  host: string,
  policy: AddressPolicy,
  resolver: HostResolver,
  stage: 'resolve' | 'connect',
): Promise<readonly string[] | TargetRejection> {
  let addresses: readonly string[];
  try {
    addresses = await resolver(host);
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    const why = typeof code === 'string' ? ` (${code})` : '';
    return refuse('resolution_failed', `host "${host}" could not be resolved${why}`, { stage });
  }
  if (addresses.length === 0) {
    return refuse('no_addresses', `host "${host}" has no A or AAAA address`, { stage });
  }
  for (const address of addresses) {
    const verdict = classifyAddress(address, policy);
    if (!verdict.allowed) {
      const message = `host "${host}" resolves to ${address}, which is not allowed (${verdict.range})`;
      return refuse(verdict.reason, message, { stage, address, range: verdict.range });
    }
  }
  return addresses;
}

/**
 * Checks a webhook URL fully: the static checks, then (for a name) resolution of all A and
 * AAAA addresses, refusing when any is non-public or there is none.
 *
 * @example
 * ```ts
 * const verdict = await checkWebhookTarget('https://hooks.example.com/cspwatch');
 * if (!verdict.allowed) console.error(verdict.reason, verdict.message);
 * ```
 */
export async function checkWebhookTarget(
  target: string | URL,
  options: TargetPolicyOptions = {},
): Promise<TargetVerdict> {
  const verdict = checkWebhookTargetStatic(target, options);
  if (!verdict.allowed) return verdict;
  if (verdict.hostKind === 'ip') return { ...verdict, addresses: [verdict.host] };
  const resolver = options.resolver ?? systemResolver;
  const checked = await resolveAndCheck(verdict.host, verdict.addressPolicy, resolver, 'resolve');
  if ('allowed' in checked) return checked;
  return { ...verdict, addresses: checked };
}
