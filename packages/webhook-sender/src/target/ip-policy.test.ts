import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { classifyAddress } from './ip-policy';
import { checkWebhookTargetStatic } from './target-policy';

/** An independent oracle: the target policy's IPv4 blocks plus AS112/AMT, matched with integer math. */
const IPV4_SPECIAL: readonly [number, number][] = [
  '0.0.0.0/8',
  '10.0.0.0/8',
  '100.64.0.0/10',
  '127.0.0.0/8',
  '169.254.0.0/16',
  '172.16.0.0/12',
  '192.0.0.0/24',
  '192.0.2.0/24',
  '192.31.196.0/24',
  '192.52.193.0/24',
  '192.88.99.0/24',
  '192.168.0.0/16',
  '192.175.48.0/24',
  '198.18.0.0/15',
  '198.51.100.0/24',
  '203.0.113.0/24',
  '224.0.0.0/4',
  '240.0.0.0/4',
].map((cidr) => {
  const [address, bits] = cidr.split('/') as [string, string];
  return [toInt(address.split('.').map(Number)), Number(bits)];
});

function toInt(octets: number[]): number {
  return octets.reduce((sum, octet) => sum * 256 + octet, 0);
}

function isSpecialV4(octets: number[]): boolean {
  const value = toInt(octets);
  return IPV4_SPECIAL.some(
    ([base, bits]) => Math.floor(value / 2 ** (32 - bits)) === Math.floor(base / 2 ** (32 - bits)),
  );
}

const octets = fc.array(fc.integer({ min: 0, max: 255 }), { minLength: 4, maxLength: 4 });
const hex = (n: number) => n.toString(16);

describe('classifyAddress (IPv4)', () => {
  it('allows exactly the addresses outside every special-purpose block', () => {
    fc.assert(
      fc.property(octets, (parts) => {
        expect(classifyAddress(parts.join('.'), 'public').allowed).toBe(!isSpecialV4(parts));
      }),
      { numRuns: 2000 },
    );
  });

  it('gives the same verdict whatever notation the URL uses', () => {
    fc.assert(
      fc.property(octets, fc.integer({ min: 1, max: 65535 }), (parts, port) => {
        const dotted = checkWebhookTargetStatic(`https://${parts.join('.')}/`).allowed;
        const forms = [
          String(toInt(parts)),
          `0x${hex(toInt(parts))}`,
          parts.map((p) => `0x${hex(p)}`).join('.'),
          parts.map((p) => `0${p.toString(8)}`).join('.'),
          `${parts[0]}.${parts[1]}.${parts[2]! * 256 + parts[3]!}`,
          `${parts.join('.')}.`,
        ];
        for (const form of forms) {
          expect(checkWebhookTargetStatic(`https://${form}/`).allowed).toBe(dotted);
          expect(checkWebhookTargetStatic(`https://${form}:${port}/x`).allowed).toBe(dotted);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('refuses every IPv6 form embedding an IPv4 address, whatever it embeds', () => {
    fc.assert(
      fc.property(octets, (parts) => {
        const [a, b, c, d] = parts as [number, number, number, number];
        const high = hex(a * 256 + b);
        const low = hex(c * 256 + d);
        const v4 = parts.join('.');
        for (const form of [
          `::ffff:${v4}`,
          `::${v4}`,
          `::ffff:0:${v4}`,
          `64:ff9b::${v4}`,
          `64:ff9b:1::${high}:${low}`,
          `2002:${high}:${low}::1`,
          `2001:0:${high}:${low}::1`,
        ]) {
          if (form === '::0.0.0.0' || form === '::0.0.0.1') continue; // :: and ::1 themselves
          const verdict = checkWebhookTargetStatic(`https://[${form}]/`);
          expect(verdict.allowed).toBe(false);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('opens only 127.0.0.0/8 with the loopback opt-in', () => {
    fc.assert(
      fc.property(octets, (parts) => {
        const address = parts.join('.');
        const open = classifyAddress(address, 'public_or_loopback').allowed;
        expect(open).toBe(parts[0] === 127 || !isSpecialV4(parts));
        expect(classifyAddress(address, 'loopback_only').allowed).toBe(parts[0] === 127);
      }),
      { numRuns: 1000 },
    );
  });
});

describe('classifyAddress (IPv6)', () => {
  const group = fc.integer({ min: 0, max: 0xffff });
  const carved = (g: number[]) =>
    (g[0] === 0x2001 && g[1]! < 0x200) ||
    g[0] === 0x2002 ||
    (g[0] === 0x2001 && g[1] === 0xdb8) ||
    (g[0] === 0x3fff && g[1]! < 0x1000) ||
    (g[0] === 0x2620 && g[1] === 0x4f && g[2] === 0x8000);

  it('allows only 2000::/3 minus the carved-out blocks', () => {
    const firstGroup = fc.oneof(
      group,
      fc.integer({ min: 0x2000, max: 0x3fff }),
      fc.constantFrom(0x2001, 0x2002, 0x3fff, 0, 0x64),
    );
    fc.assert(
      fc.property(firstGroup, fc.array(group, { minLength: 7, maxLength: 7 }), (first, rest) => {
        const groups = [first, ...rest];
        const expected = first >= 0x2000 && first <= 0x3fff && !carved(groups);
        expect(classifyAddress(groups.map(hex).join(':'), 'public').allowed).toBe(expected);
      }),
      { numRuns: 2000 },
    );
  });

  it('opens only ::1 with the loopback opt-in', () => {
    expect(classifyAddress('::1', 'public_or_loopback').allowed).toBe(true);
    expect(classifyAddress('::1', 'loopback_only').allowed).toBe(true);
    expect(classifyAddress('::1', 'public').allowed).toBe(false);
    for (const address of ['::', '::2', 'fe80::1', 'fd00::1', '::ffff:127.0.0.1', '2001:db8::1']) {
      expect(classifyAddress(address, 'public_or_loopback').allowed).toBe(false);
    }
    expect(classifyAddress('2606:4700:4700::1111', 'loopback_only').allowed).toBe(false);
  });

  it('refuses text that is not a canonical address', () => {
    for (const text of [
      '',
      'example.com',
      '127.1',
      '0x7f.0.0.1',
      '2130706433',
      '1.2.3.256',
      '[::1]',
      ':::',
    ]) {
      expect(classifyAddress(text, 'public')).toMatchObject({
        allowed: false,
        reason: 'invalid_address',
      });
    }
  });
});
