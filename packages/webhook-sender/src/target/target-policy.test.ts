import { describe, expect, it } from 'vitest';
import type { HostResolver } from './resolver';
import { checkWebhookTarget, checkWebhookTargetStatic } from './target-policy';

/** Every name resolves to one public address unless listed here. */
const DNS: Record<string, readonly string[] | Error> = {
  'mixed.example.com': ['93.184.216.34', '192.168.1.10'],
  'mixed6.example.com': ['2606:4700:4700::1111', 'fd00::5'],
  'private.example.com': ['10.1.2.3'],
  'metadata.example.com': ['169.254.169.254'],
  '127.0.0.1.nip.io': ['127.0.0.1'],
  'mapped.example.com': ['::ffff:10.0.0.1'],
  'empty.example.com': [],
  'nxdomain.example.com': new Error('ENOTFOUND'),
  'v6.example.com': ['2a00:1450:4001:82b::200e'],
  localhost: ['127.0.0.1', '::1'],
  'app.localhost': ['127.0.0.1'],
  'evil.localhost': ['10.0.0.1'],
  'loop.example.com': ['127.0.0.1'],
};
const resolver: HostResolver = async (name) => {
  const answer = DNS[name] ?? ['93.184.216.34'];
  if (answer instanceof Error) throw answer;
  return answer;
};

type Row = readonly [url: string, expected: string];

/** Without the loopback opt-in. `ok` means allowed; anything else is the rejection reason. */
const TABLE: readonly Row[] = [
  // accepted names, case, trailing dot, ports
  ['https://hooks.example.com/cspwatch', 'ok'],
  ['https://HOOKS.Example.COM/Path?Q=1', 'ok'],
  ['https://hooks.example.com./x', 'ok'],
  ['https://hooks.example.com:8443/x', 'ok'],
  ['https://hooks.example.com:1/', 'ok'],
  ['https://hooks.example.com:65535/', 'ok'],
  ['https://hooks.example.com:443/', 'ok'],
  ['https://@hooks.example.com/', 'ok'], // empty userinfo: the parser drops it
  ['https://bücher.example.com/', 'ok'],
  ['https://ｅｘａｍｐｌｅ．com/', 'ok'], // full-width: the parser maps it to example.com
  ['https://local.example.com/', 'ok'],
  ['https://internal.example.com/', 'ok'],
  ['https://localhost.example.com/', 'ok'],
  ['https://0x7f.0.0.1.example.com/', 'ok'], // a name, not an address
  ['https://v6.example.com/', 'ok'],
  // scheme, userinfo, port, parse errors
  ['http://hooks.example.com/', 'scheme_not_allowed'],
  ['HTTP://8.8.8.8/', 'scheme_not_allowed'],
  ['ftp://hooks.example.com/', 'scheme_not_allowed'],
  ['javascript:alert(1)', 'scheme_not_allowed'],
  ['wss://hooks.example.com/', 'scheme_not_allowed'],
  ['not a url', 'invalid_url'],
  ['', 'invalid_url'],
  ['/relative/path', 'invalid_url'],
  ['https://', 'invalid_url'],
  ['https://hooks.example.com:65536/', 'invalid_url'],
  ['https://1.2.3.4.5/', 'invalid_url'],
  ['https://[fe80::1%25eth0]/', 'invalid_url'],
  ['https://user@hooks.example.com/', 'userinfo_not_allowed'],
  ['https://user:pass@hooks.example.com/', 'userinfo_not_allowed'],
  ['https://:pass@hooks.example.com/', 'userinfo_not_allowed'],
  ['https://user@8.8.8.8/', 'userinfo_not_allowed'],
  ['https://hooks.example.com:0/', 'port_not_allowed'],
  ['https://hooks.example.com:00/', 'port_not_allowed'],
  // names
  ['https://localhost/', 'localhost_name'],
  ['https://LOCALHOST:8443/', 'localhost_name'],
  ['https://localhost./', 'localhost_name'],
  ['https://localhost%2e/', 'localhost_name'],
  ['https://api.localhost/', 'localhost_name'],
  ['https://a.b.LocalHost./', 'localhost_name'],
  ['https://ｌｏｃａｌｈｏｓｔ/', 'localhost_name'], // full-width, mapped by the parser
  ['https://ＬＯＣＡＬＨＯＳＴ./', 'localhost_name'],
  ['https://printer.local/', 'local_name'],
  ['https://printer.LOCAL./', 'local_name'],
  ['https://metadata.google.internal/', 'internal_name'],
  ['https://foo.INTERNAL./', 'internal_name'],
  ['https://intranet/', 'single_label_name'],
  ['https://intranet./', 'single_label_name'],
  ['https://com/', 'single_label_name'],
  ['https://hooks..example.com/', 'empty_label'],
  ['https://.example.com/', 'empty_label'],
  ['https://example.com../', 'empty_label'],
  // public IPv4 in every notation
  ['https://8.8.8.8/', 'ok'],
  ['https://134744072/', 'ok'],
  ['https://0x8.0x8.0x8.0x8/', 'ok'],
  ['https://010.010.010.010/', 'ok'],
  ['https://8.8.2056/', 'ok'],
  ['https://1.1.1.1./', 'ok'],
  ['https://100.63.255.255/', 'ok'],
  ['https://100.128.0.1/', 'ok'],
  ['https://172.15.255.255/', 'ok'],
  ['https://172.32.0.1/', 'ok'],
  ['https://198.20.0.1/', 'ok'],
  ['https://223.255.255.255/', 'ok'],
  // every special-purpose IPv4 block, several notations
  ['https://0.0.0.0/', 'ipv4_not_public'],
  ['https://0/', 'ipv4_not_public'],
  ['https://0.1.2.3/', 'ipv4_not_public'],
  ['https://10.0.0.1/', 'ipv4_not_public'],
  ['https://10.255.255.255:8443/', 'ipv4_not_public'],
  ['https://167772161/', 'ipv4_not_public'],
  ['https://0xa.0.0.1/', 'ipv4_not_public'],
  ['https://012.0.0.1/', 'ipv4_not_public'],
  ['https://100.64.0.1/', 'ipv4_not_public'],
  ['https://100.127.255.254/', 'ipv4_not_public'],
  ['https://127.0.0.1/', 'ipv4_not_public'],
  ['https://127.255.255.254/', 'ipv4_not_public'],
  ['https://2130706433/', 'ipv4_not_public'],
  ['https://0x7f000001/', 'ipv4_not_public'],
  ['https://0177.0.0.1/', 'ipv4_not_public'],
  ['https://127.1/', 'ipv4_not_public'],
  ['https://0x7f.1/', 'ipv4_not_public'],
  ['https://%31%32%37.0.0.1/', 'ipv4_not_public'],
  ['https://127.0.0.1./', 'ipv4_not_public'],
  ['https://①②⑦.0.0.1/', 'ipv4_not_public'], // circled digits, mapped by the parser
  ['https://127。0。0。1/', 'ipv4_not_public'], // ideographic full stops
  ['https://169.254.169.254/', 'ipv4_not_public'],
  ['https://2852039166/', 'ipv4_not_public'],
  ['https://172.16.0.1/', 'ipv4_not_public'],
  ['https://172.31.255.255/', 'ipv4_not_public'],
  ['https://192.0.0.8/', 'ipv4_not_public'],
  ['https://192.0.2.1/', 'ipv4_not_public'],
  ['https://192.88.99.1/', 'ipv4_not_public'],
  ['https://192.168.1.1/', 'ipv4_not_public'],
  ['https://0xc0a80101/', 'ipv4_not_public'],
  ['https://198.18.0.1/', 'ipv4_not_public'],
  ['https://198.19.255.255/', 'ipv4_not_public'],
  ['https://198.51.100.7/', 'ipv4_not_public'],
  ['https://203.0.113.9/', 'ipv4_not_public'],
  ['https://224.0.0.1/', 'ipv4_not_public'],
  ['https://239.255.255.250/', 'ipv4_not_public'],
  ['https://240.0.0.1/', 'ipv4_not_public'],
  ['https://255.255.255.255/', 'ipv4_not_public'],
  ['https://4294967295/', 'ipv4_not_public'],
  ['https://192.31.196.1/', 'ipv4_not_public'], // AS112 (IANA special-purpose; refused, see README)
  ['https://192.52.193.1/', 'ipv4_not_public'], // AMT
  ['https://192.175.48.1/', 'ipv4_not_public'], // AS112 direct delegation
  // IPv6: global unicast accepted
  ['https://[2606:4700:4700::1111]/', 'ok'],
  ['https://[2001:4860:4860::8888]/', 'ok'],
  ['https://[2A00:1450:4001::200E]:8443/', 'ok'],
  ['https://[2001:200::1]/', 'ok'], // just past 2001::/23
  ['https://[3ffe::1]/', 'ok'],
  ['https://[3fff:1000::1]/', 'ok'], // just past 3fff::/20
  // IPv6: everything else
  ['https://[::1]/', 'ipv6_not_public'],
  ['https://[0:0:0:0:0:0:0:1]/', 'ipv6_not_public'],
  ['https://[::]/', 'ipv6_not_public'],
  ['https://[fe80::1]/', 'ipv6_not_public'],
  ['https://[febf::1]/', 'ipv6_not_public'],
  ['https://[fec0::1]/', 'ipv6_not_public'],
  ['https://[fc00::1]/', 'ipv6_not_public'],
  ['https://[fd12:3456::1]/', 'ipv6_not_public'],
  ['https://[ff02::1]/', 'ipv6_not_public'],
  ['https://[100::1]/', 'ipv6_not_public'],
  ['https://[4000::1]/', 'ipv6_not_public'],
  ['https://[5f00::1]/', 'ipv6_not_public'],
  ['https://[8000::1]/', 'ipv6_not_public'],
  ['https://[2001:db8::1]/', 'ipv6_not_public'],
  ['https://[2001:1ff::1]/', 'ipv6_not_public'],
  ['https://[2001:2::1]/', 'ipv6_not_public'],
  ['https://[2001:10::1]/', 'ipv6_not_public'],
  ['https://[3fff::1]/', 'ipv6_not_public'],
  ['https://[3fff:fff::1]/', 'ipv6_not_public'],
  ['https://[2620:4f:8000::1]/', 'ipv6_not_public'], // AS112 v6
  // IPv6 forms that embed IPv4, whatever they embed
  ['https://[::ffff:127.0.0.1]/', 'ipv6_embeds_ipv4'],
  ['https://[::ffff:7f00:1]/', 'ipv6_embeds_ipv4'],
  ['https://[::ffff:8.8.8.8]/', 'ipv6_embeds_ipv4'],
  ['https://[::FFFF:a9fe:a9fe]/', 'ipv6_embeds_ipv4'],
  ['https://[::127.0.0.1]/', 'ipv6_embeds_ipv4'],
  ['https://[::8.8.8.8]/', 'ipv6_embeds_ipv4'],
  ['https://[::ffff:0:127.0.0.1]/', 'ipv6_embeds_ipv4'],
  ['https://[64:ff9b::127.0.0.1]/', 'ipv6_embeds_ipv4'],
  ['https://[64:ff9b::8.8.8.8]/', 'ipv6_embeds_ipv4'],
  ['https://[64:ff9b:1::a00:1]/', 'ipv6_embeds_ipv4'],
  ['https://[2002:7f00:1::1]/', 'ipv6_embeds_ipv4'],
  ['https://[2002:808:808::1]/', 'ipv6_embeds_ipv4'],
  ['https://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/', 'ipv6_embeds_ipv4'],
  // names that resolve badly
  ['https://mixed.example.com/', 'ipv4_not_public'],
  ['https://mixed6.example.com/', 'ipv6_not_public'],
  ['https://private.example.com/', 'ipv4_not_public'],
  ['https://metadata.example.com./', 'ipv4_not_public'],
  ['https://127.0.0.1.nip.io/', 'ipv4_not_public'],
  ['https://mapped.example.com/', 'ipv6_embeds_ipv4'],
  ['https://empty.example.com/', 'no_addresses'],
  ['https://nxdomain.example.com/', 'resolution_failed'],
  ['https://loop.example.com/', 'ipv4_not_public'],
];

/** With `dangerouslyAllowLoopback: true`: loopback only, never other private ranges. */
const LOOPBACK_TABLE: readonly Row[] = [
  ['http://127.0.0.1:3000/hook', 'ok'],
  ['https://127.0.0.1/', 'ok'],
  ['http://127.0.0.2/', 'ok'],
  ['http://2130706433:8080/', 'ok'],
  ['http://[::1]:3000/', 'ok'],
  ['http://localhost:3000/', 'ok'],
  ['http://app.localhost/', 'ok'],
  ['https://loop.example.com/', 'ok'],
  ['https://hooks.example.com/', 'ok'],
  ['http://hooks.example.com/', 'scheme_not_allowed'],
  ['http://loop.example.com/', 'scheme_not_allowed'],
  ['http://8.8.8.8/', 'scheme_not_allowed'],
  ['http://10.0.0.1/', 'ipv4_not_public'],
  ['https://10.0.0.1/', 'ipv4_not_public'],
  ['https://0.0.0.0/', 'ipv4_not_public'],
  ['https://169.254.169.254/', 'ipv4_not_public'],
  ['http://[::]/', 'ipv6_not_public'],
  ['https://[::ffff:127.0.0.1]/', 'ipv6_embeds_ipv4'],
  ['http://evil.localhost/', 'not_loopback'],
  ['https://mixed.example.com/', 'ipv4_not_public'],
  ['ftp://127.0.0.1/', 'scheme_not_allowed'],
  ['http://user:pw@127.0.0.1/', 'userinfo_not_allowed'],
  ['http://127.0.0.1:0/', 'port_not_allowed'],
];

const outcome = (verdict: { allowed: boolean; reason?: string }) =>
  verdict.allowed ? 'ok' : verdict.reason;

describe('checkWebhookTarget policy table', () => {
  it('has at least 80 rows', () => {
    expect(TABLE.length + LOOPBACK_TABLE.length).toBeGreaterThanOrEqual(80);
  });

  it.each(TABLE)('%s → %s', async (url, expected) => {
    expect(outcome(await checkWebhookTarget(url, { resolver }))).toBe(expected);
  });

  it.each(LOOPBACK_TABLE)('with dangerouslyAllowLoopback: %s → %s', async (url, expected) => {
    const verdict = await checkWebhookTarget(url, { resolver, dangerouslyAllowLoopback: true });
    expect(outcome(verdict)).toBe(expected);
  });
});

describe('checkWebhookTarget details', () => {
  it('delivers to the URL as the WHATWG parser serialised it', async () => {
    const verdict = await checkWebhookTarget('https://HOOKS.example.com:443/a/../b?x=1', {
      resolver,
    });
    expect(verdict.allowed && verdict.url.href).toBe('https://hooks.example.com/b?x=1');
  });

  it('returns every resolved address it checked', async () => {
    const verdict = await checkWebhookTarget('https://localhost:8080/', {
      resolver,
      dangerouslyAllowLoopback: true,
    });
    expect(verdict.allowed && verdict.addresses).toEqual(['127.0.0.1', '::1']);
  });

  it('names the refused address and the range it fell in', async () => {
    const verdict = await checkWebhookTarget('https://mixed.example.com/', { resolver });
    expect(verdict).toMatchObject({
      allowed: false,
      stage: 'resolve',
      address: '192.168.1.10',
      range: 'private',
    });
  });

  it('resolves the name without its trailing dot', async () => {
    const asked: string[] = [];
    await checkWebhookTarget('https://Hooks.Example.com./', {
      resolver: async (name) => {
        asked.push(name);
        return ['93.184.216.34'];
      },
    });
    expect(asked).toEqual(['hooks.example.com']);
  });

  it('does no DNS lookup in the static check', () => {
    const verdict = checkWebhookTargetStatic('https://hooks.example.com/');
    expect(verdict).toMatchObject({ allowed: true, hostKind: 'name', host: 'hooks.example.com' });
  });

  it('never puts the path, query or userinfo in a message', async () => {
    const urls = [
      'https://tok3n:pa55w0rd@hooks.example.com/s3cr3t?token=t0ps3cr3t',
      'https://10.0.0.1/s3cr3t?token=t0ps3cr3t',
      'http://hooks.example.com/s3cr3t?token=t0ps3cr3t',
      'https://private.example.com/s3cr3t?token=t0ps3cr3t',
    ];
    for (const url of urls) {
      const verdict = await checkWebhookTarget(url, { resolver });
      expect(verdict.allowed).toBe(false);
      if (!verdict.allowed) expect(verdict.message).not.toMatch(/s3cr3t|t0ps3cr3t|tok3n|pa55w0rd/);
    }
  });

  it('treats a URL object like its string', async () => {
    const verdict = await checkWebhookTarget(new URL('https://2130706433/'), { resolver });
    expect(verdict).toMatchObject({
      allowed: false,
      reason: 'ipv4_not_public',
      address: '127.0.0.1',
    });
  });
});
