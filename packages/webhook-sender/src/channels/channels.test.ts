import { inspect } from 'node:util';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isWebhookSenderError, type WebhookSenderError } from '../errors';
import {
  createWebhookChannel,
  maskSecret,
  toWebhookChannelView,
  updateWebhookChannel,
} from './channels';

const SECRET = 'whsec_0123456789abcdef';
const valid = { name: 'Ops alerts', url: 'https://hooks.example.com/csp', secret: SECRET };

function issuesOf(run: () => unknown) {
  try {
    run();
  } catch (error) {
    expect(isWebhookSenderError(error)).toBe(true);
    expect((error as WebhookSenderError).code).toBe('invalid_channel');
    return (error as WebhookSenderError).issues.map((issue) => `${issue.path}:${issue.code}`);
  }
  throw new Error('expected a WebhookSenderError');
}

describe('createWebhookChannel', () => {
  it('creates a channel with a normalised URL, a trimmed name and an id', () => {
    const channel = createWebhookChannel({
      ...valid,
      name: '  Ops alerts ',
      url: 'HTTPS://Hooks.Example.com:443/csp',
    });
    expect(channel).toMatchObject({
      type: 'Webhook',
      name: 'Ops alerts',
      url: 'https://hooks.example.com/csp',
    });
    expect(channel.id).toMatch(/^wh_[0-9a-f-]{36}$/);
    expect(channel.secret).toBe(SECRET);
    expect(createWebhookChannel(valid, { id: 'wh_fixed' }).id).toBe('wh_fixed');
  });

  it('never shows the secret when the channel is serialised or logged', () => {
    const channel = createWebhookChannel(valid);
    expect(JSON.stringify(channel)).not.toContain(SECRET);
    expect(inspect(channel, { depth: 5 })).not.toContain(SECRET);
    expect(`${channel}`).not.toContain(SECRET);
    expect(Object.keys(channel)).toEqual(['id', 'type', 'name', 'url']);
  });

  it('lists every problem at once, with field paths and codes', () => {
    expect(
      issuesOf(() => createWebhookChannel({ name: ' ', url: 'http://10.0.0.1/', secret: 'short' })),
    ).toEqual(['name:name_required', 'url:url_scheme_not_allowed', 'secret:secret_too_short']);
  });

  it.each([
    [{ ...valid, url: 'https://10.0.0.1/' }, 'url:url_ipv4_not_public'],
    [{ ...valid, url: 'https://printer.local/' }, 'url:url_local_name'],
    [{ ...valid, url: 'https://u:p@hooks.example.com/' }, 'url:url_userinfo_not_allowed'],
    [{ ...valid, url: 'https://[::ffff:10.0.0.1]/' }, 'url:url_ipv6_embeds_ipv4'],
    [{ ...valid, url: `https://hooks.example.com/${'a'.repeat(2048)}` }, 'url:url_too_long'],
    [{ ...valid, url: 42 }, 'url:url_required'],
    [{ ...valid, name: 'x'.repeat(256) }, 'name:name_too_long'],
    [{ ...valid, name: 'line\nbreak' }, 'name:name_invalid'],
    [{ ...valid, secret: '1234567' }, 'secret:secret_too_short'],
    [{ ...valid, secret: '🔑🔑🔑🔑🔑🔑🔑' }, 'secret:secret_too_short'], // 7 code points, 14 UTF-16 units
    [{ ...valid, secret: 'abcdefg\uD800' }, 'secret:secret_not_well_formed'],
    [{ ...valid, secret: undefined }, 'secret:secret_required'],
    [{ ...valid, type: 'Slack' }, 'type:type_invalid'],
    [{ ...valid, endpointUrl: 'https://x.example.com/' }, 'endpointUrl:unknown_field'],
  ])('refuses %o', (input, expected) => {
    expect(issuesOf(() => createWebhookChannel(input as never))).toContain(expected);
  });

  it('accepts 8 code points, even as astral characters', () => {
    expect(createWebhookChannel({ ...valid, secret: '🔑🔑🔑🔑🔑🔑🔑🔑' }).secret).toBe(
      '🔑🔑🔑🔑🔑🔑🔑🔑',
    );
  });

  it('accepts loopback URLs only with the opt-in', () => {
    const local = { ...valid, url: 'http://127.0.0.1:4000/hook' };
    expect(issuesOf(() => createWebhookChannel(local))).toEqual(['url:url_scheme_not_allowed']);
    expect(createWebhookChannel(local, { dangerouslyAllowLoopback: true }).url).toBe(
      'http://127.0.0.1:4000/hook',
    );
  });

  it('never puts the secret in an error message', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 5 }), fc.string(), fc.boolean(), (tail, name, edit) => {
        const secret = `§¤${tail}`; // too short; § and ¤ never appear in messages
        const run = edit
          ? () => updateWebhookChannel(createWebhookChannel(valid), { name, secret })
          : () => createWebhookChannel({ name, url: 'ftp://x', secret });
        expect(run).toThrow();
        try {
          run();
        } catch (error) {
          const text = `${(error as Error).message} ${(error as Error).stack} ${JSON.stringify(error)} ${inspect(error)}`;
          expect(text).not.toContain(secret);
        }
      }),
      { numRuns: 200 },
    );
  });
});

describe('updateWebhookChannel', () => {
  const channel = createWebhookChannel(valid, { id: 'wh_1' });

  it('keeps the current secret when the edit sends an empty or no secret', () => {
    expect(updateWebhookChannel(channel, { name: 'Renamed', secret: '' })).toMatchObject({
      id: 'wh_1',
      name: 'Renamed',
    });
    expect(updateWebhookChannel(channel, { secret: '' }).secret).toBe(SECRET);
    expect(updateWebhookChannel(channel, {}).secret).toBe(SECRET);
  });

  it('replaces the secret and URL when given, validating them', () => {
    const edited = updateWebhookChannel(channel, {
      secret: 'a-new-secret',
      url: 'https://new.example.com/',
    });
    expect(edited).toMatchObject({ url: 'https://new.example.com/', secret: 'a-new-secret' });
    expect(issuesOf(() => updateWebhookChannel(channel, { secret: 'short' }))).toEqual([
      'secret:secret_too_short',
    ]);
    expect(issuesOf(() => updateWebhookChannel(channel, { url: 'https://localhost/' }))).toEqual([
      'url:url_localhost_name',
    ]);
  });
});

describe('secret preview', () => {
  it('masks with a fixed width, showing the last four only for long secrets', () => {
    expect(maskSecret('12345678')).toBe('********');
    expect(maskSecret('123456789012345')).toBe('********');
    expect(maskSecret(SECRET)).toBe('********cdef');
    expect(toWebhookChannelView(createWebhookChannel(valid, { id: 'wh_v' }))).toEqual({
      id: 'wh_v',
      type: 'Webhook',
      name: 'Ops alerts',
      url: 'https://hooks.example.com/csp',
      secretPreview: '********cdef',
    });
  });
});
