// ../packages/webhook-sender/src/alerts/alerts.ts
import { randomUUID } from 'node:crypto';

// ../packages/contract/src/redact-urls.ts
var REDACTED = '[redacted]';
var SPECIAL_SCHEMES = /* @__PURE__ */ new Set(['http', 'https', 'ws', 'wss', 'ftp']);
var SPACE = /\s/;
var TEXT_BREAK = /[\s"`<>]/;
var LETTER = /[A-Za-z]/;
var SCHEME_CHAR = /[A-Za-z0-9+.-]/;
var OPENER = /[\s"'`(<[{=,;]/;
var VALUE_END = /[&#\s"'`<>\\]/;
var parse = (text) => {
  try {
    return new URL(text);
  } catch {
    return void 0;
  }
};
function scan(text) {
  let out = '';
  let done = 0;
  let inUrl = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    let authority = -1;
    let special = true;
    if (SPACE.test(char)) inUrl = false;
    else if (char === ':') {
      let start = i;
      while (start > 0 && SCHEME_CHAR.test(text[start - 1])) start--;
      while (start < i && !LETTER.test(text[start])) start++;
      const scheme = text.slice(start, i).toLowerCase();
      special = SPECIAL_SCHEMES.has(scheme);
      if (special) {
        authority = i + 1;
        while (text[authority] === '/' || text[authority] === '\\') authority++;
      } else if (scheme && text.startsWith('//', i + 1)) authority = i + 3;
    } else if (char === '/' && (i === 0 || OPENER.test(text[i - 1]))) {
      inUrl = true;
      if (text[i + 1] === '/') authority = i + 2;
    } else if (inUrl && (char === '?' || char === '#')) {
      let part = i + 1;
      for (;;) {
        let end = part;
        let value = part;
        while (end < text.length && !VALUE_END.test(text[end])) {
          if (text[end] === '=' && value === part) value = end + 1;
          end++;
        }
        if (end > value) {
          out += text.slice(done, value) + REDACTED;
          done = end;
        }
        if (text[end] !== '&') {
          inUrl = text[end] === '#';
          i = end - 1;
          break;
        }
        part = end + 1;
      }
    }
    if (authority < 0) continue;
    inUrl = true;
    for (;;) {
      let end = authority;
      let at = -1;
      for (; end < text.length; end++) {
        const next = text[end];
        if (next === '/' || next === '?' || next === '#' || TEXT_BREAK.test(next)) break;
        if (special && next === '\\') break;
        if (next === '@') at = end;
      }
      if (at >= 0) {
        out += text.slice(done, authority);
        done = at + 1;
      }
      i = end - 1;
      const slash = text[end] === '/' || text[end] === '\\';
      if (!special || char !== ':' || at < 0 || end !== at + 1 || !slash) break;
      authority = end;
      while (text[authority] === '/' || text[authority] === '\\') authority++;
    }
  }
  return out + text.slice(done);
}
function redactUrls(text) {
  const url = TEXT_BREAK.test(text) && text.includes('@') ? parse(text) : void 0;
  if (!url || (url.username === '' && url.password === '')) return scan(text);
  url.username = '';
  url.password = '';
  return scan(url.href);
}

// ../packages/webhook-sender/src/errors.ts
var MARKER = /* @__PURE__ */ Symbol.for('@cspwatch/webhook-sender.WebhookSenderError');
var WebhookSenderError = class extends Error {
  /** Always `'WebhookSenderError'`. */
  name = 'WebhookSenderError';
  /** What went wrong; see {@link WebhookSenderErrorCode}. */
  code;
  /** Every problem found, in field order. At least one. */
  issues;
  /**
   * @param code - the error code
   * @param issues - the problems found (the message lists them)
   * @param options - `cause`, passed through to `Error`
   */
  constructor(code, issues, options) {
    const shown2 = issues.map((issue2) => ({
      ...issue2,
      path: redactUrls(issue2.path),
      message: redactUrls(issue2.message),
    }));
    const summary = shown2.map((issue2) => `${issue2.path}: ${issue2.message}`).join('; ');
    super(`${code.replace(/_/g, ' ')}: ${summary}`, options);
    this.code = code;
    this.issues = Object.freeze(shown2);
    Object.defineProperty(this, MARKER, { value: true });
  }
};
function isWebhookSenderError(value) {
  return typeof value === 'object' && value !== null && MARKER in value;
}

// ../packages/webhook-sender/src/alerts/alert-fields.ts
var ISO_WITH_ZONE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/i;
var DIRECTIVE = /^[a-z][a-z0-9-]*$/;
var UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
var CSP_KEYWORDS = /* @__PURE__ */ new Set([
  'inline',
  'eval',
  'wasm-eval',
  'trusted-types-policy',
  'trusted-types-sink',
]);
var AlertIssues = class {
  /** Issues found so far. */
  list = [];
  /** Records an issue. */
  add(path, code, message) {
    this.list.push({ path, code, message });
  }
  /** A non-empty string, or an issue. */
  text(path, value) {
    if (typeof value === 'string' && value.trim() !== '') return value;
    this.add(path, 'required', 'must be a non-empty string');
    return '';
  }
  /** An absolute http(s) URL, or an issue. */
  url(path, value) {
    const text = this.text(path, value);
    if (text !== '' && !URL.canParse(text))
      this.add(path, 'invalid_url', 'must be an absolute URL');
    else if (text !== '' && !/^https?:$/.test(new URL(text).protocol)) {
      this.add(path, 'invalid_url', 'must be an http or https URL');
    }
    return text;
  }
  /** An instant as ISO 8601 UTC with milliseconds, or an issue. */
  instant(path, value) {
    const ok =
      value instanceof Date ||
      typeof value === 'number' ||
      (typeof value === 'string' && ISO_WITH_ZONE.test(value));
    const time = ok ? new Date(value).getTime() : Number.NaN;
    if (Number.isFinite(time)) return new Date(time).toISOString();
    this.add(
      path,
      'invalid_date',
      'must be a Date, Unix milliseconds or ISO 8601 with a time zone',
    );
    return '';
  }
  /** A lowercase CSP directive name, or an issue. */
  directive(path, value) {
    if (typeof value === 'string' && DIRECTIVE.test(value)) return value;
    this.add(
      path,
      'invalid_directive',
      'must be a lowercase CSP directive name such as script-src',
    );
    return '';
  }
  /** A serialised origin (or a CSP keyword such as `inline`), or an issue. */
  origin(path, value) {
    if (typeof value === 'string' && CSP_KEYWORDS.has(value)) return value;
    if (typeof value === 'string' && URL.canParse(value) && new URL(value).origin === value) {
      return value;
    }
    this.add(
      path,
      'invalid_origin',
      'must be an origin like https://cdn.example.com (no path, no trailing slash)',
    );
    return '';
  }
  /** A positive integer, or an issue. */
  count(path, value) {
    if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 1) return value;
    this.add(path, 'invalid_count', 'must be an integer >= 1');
    return 0;
  }
  /** A UUID, or an issue. */
  uuid(path, value) {
    if (typeof value === 'string' && UUID.test(value)) return value.toLowerCase();
    this.add(path, 'invalid_id', 'must be a UUID');
    return '';
  }
};

// ../packages/webhook-sender/src/alerts/alerts.ts
var EVENT_TYPE = 'csp-violation:new-type';
function buildFindings(input, issues, windowEnd) {
  if (!Array.isArray(input.findings) || input.findings.length === 0) {
    issues.add('findings', 'findings_empty', 'must be a non-empty array');
    return [];
  }
  const keys = /* @__PURE__ */ new Set();
  return input.findings.map((finding, index) => {
    const path = `findings.${index}`;
    const effectiveDirective = issues.directive(
      `${path}.effectiveDirective`,
      finding?.effectiveDirective,
    );
    const blockedUrlOrigin = issues.origin(`${path}.blockedUrlOrigin`, finding?.blockedUrlOrigin);
    const firstSeen = issues.instant(`${path}.firstSeen`, finding?.firstSeen);
    const count = issues.count(`${path}.count`, finding?.count);
    const key = `${effectiveDirective}
${blockedUrlOrigin}`;
    if (effectiveDirective && blockedUrlOrigin && keys.has(key)) {
      issues.add(path, 'duplicate_finding', 'two findings have the same directive and origin');
    }
    keys.add(key);
    if (firstSeen && windowEnd && Date.parse(firstSeen) > Date.parse(windowEnd)) {
      issues.add(`${path}.firstSeen`, 'after_window', 'is after window.end');
    }
    return { kind: EVENT_TYPE, key, effectiveDirective, blockedUrlOrigin, firstSeen, count };
  });
}
function buildAlert(input) {
  if (typeof input !== 'object' || input === null) {
    throw new WebhookSenderError('invalid_alert', [
      { path: '(input)', code: 'not_an_object', message: 'must be an object' },
    ]);
  }
  const issues = new AlertIssues();
  const id = input.id === void 0 ? randomUUID() : issues.uuid('id', input.id);
  const rule = issues.text('rule', input.rule);
  const website = {
    id: issues.text('website.id', input.website?.id),
    name: issues.text('website.name', input.website?.name),
    url: issues.url('website.url', input.website?.url),
  };
  const start = issues.instant('window.start', input.window?.start);
  const end = issues.instant('window.end', input.window?.end);
  if (start && end && Date.parse(start) > Date.parse(end))
    issues.add('window', 'window_reversed', 'start is after end');
  const findings = buildFindings(input, issues, end);
  const dashboardUrl = issues.url('dashboardUrl', input.dashboardUrl);
  if (issues.list.length > 0) throw new WebhookSenderError('invalid_alert', issues.list);
  return {
    id,
    eventType: EVENT_TYPE,
    rule,
    website,
    findings,
    findingsCount: findings.length,
    window: { start, end },
    dashboardUrl,
  };
}

// ../packages/webhook-sender/src/channels/channel-state.ts
var FAILURES_BEFORE_DISABLE = 5;
function createMemoryChannelStateStore() {
  const failures = /* @__PURE__ */ new Map();
  const disabled = /* @__PURE__ */ new Set();
  return {
    async get(channelId) {
      return {
        consecutiveFailures: failures.get(channelId) ?? 0,
        disabled: disabled.has(channelId),
      };
    },
    async recordAttempt(channelId, { ok, failuresToDisable }) {
      const count = ok ? 0 : (failures.get(channelId) ?? 0) + 1;
      failures.set(channelId, count);
      const disabledNow = !ok && count >= failuresToDisable && !disabled.has(channelId);
      if (disabledNow) disabled.add(channelId);
      return { consecutiveFailures: count, disabled: disabled.has(channelId), disabledNow };
    },
    async disable(channelId) {
      if (disabled.has(channelId)) return false;
      disabled.add(channelId);
      return true;
    },
    async enable(channelId) {
      disabled.delete(channelId);
      failures.set(channelId, 0);
    },
  };
}

// ../packages/webhook-sender/src/channels/channels.ts
import { randomUUID as randomUUID2 } from 'node:crypto';

// ../packages/webhook-sender/src/channels/channel-fields.ts
import {
  MIN_SECRET_LENGTH,
  secretProblem,
} from '/work/wt/trace-queue/packages/webhooks/dist/node.js';

// ../packages/webhook-sender/src/target/host-name.ts
var refuse = (reason, message) => ({
  allowed: false,
  reason,
  message,
});
function judgeHostName(hostname, allowLocalhost) {
  const name = (hostname.endsWith('.') ? hostname.slice(0, -1) : hostname).toLowerCase();
  const labels = name.split('.');
  if (labels.some((label) => label === '')) {
    return refuse('empty_label', `host "${hostname}" has an empty label`);
  }
  const last = labels[labels.length - 1];
  if (last === 'localhost') {
    if (allowLocalhost) return { allowed: true, name, localhost: true };
    return refuse('localhost_name', `host "${hostname}" is localhost, which is not public`);
  }
  if (last === 'local') {
    return refuse('local_name', `host "${hostname}" ends in .local (multicast DNS), not public`);
  }
  if (last === 'internal') {
    return refuse('internal_name', `host "${hostname}" ends in .internal, not public`);
  }
  if (labels.length < 2) {
    return refuse('single_label_name', `host "${hostname}" has no dot; use a public DNS name`);
  }
  return { allowed: true, name, localhost: false };
}

// ../packages/webhook-sender/src/target/ip-policy.ts
import ipaddr from '/work/wt/trace-queue/node_modules/.pnpm/ipaddr.js@2.5.0/node_modules/ipaddr.js/lib/ipaddr.js';

var cidrs = (list) => list.map((cidr) => [cidr, ipaddr.parseCIDR(cidr)]);
var IPV4_DENIED = cidrs([
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
var IPV6_GLOBAL_UNICAST = ipaddr.parseCIDR('2000::/3');
var IPV6_DENIED = cidrs(['2001::/23', '2001:db8::/32', '2002::/16', '3fff::/20']);
var IPV6_EMBEDDING_RANGES = /* @__PURE__ */ new Set([
  'ipv4Mapped',
  'rfc6145',
  'rfc6052',
  '6to4',
  'teredo',
]);
var rejected = (reason, range) => ({
  allowed: false,
  reason,
  range,
});
function classifyIPv4(address, policy) {
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
function embedsIPv4(address) {
  if (IPV6_EMBEDDING_RANGES.has(address.range())) return true;
  const [a, b, c, d, e, f, g, h] = address.parts;
  return a === 0 && b === 0 && c === 0 && d === 0 && e === 0 && f === 0 && (g !== 0 || h > 1);
}
function classifyIPv6(address, policy) {
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
function classifyAddress(address, policy) {
  if (ipaddr.IPv4.isValidFourPartDecimal(address)) {
    return classifyIPv4(ipaddr.IPv4.parse(address), policy);
  }
  if (ipaddr.IPv6.isValid(address)) return classifyIPv6(ipaddr.IPv6.parse(address), policy);
  return rejected('invalid_address', 'invalid');
}

// ../packages/webhook-sender/src/target/resolver.ts
import { lookup as dnsLookup } from 'node:dns/promises';

var systemResolver = async (hostname) => {
  const records = await dnsLookup(hostname, { all: true, verbatim: true });
  return records.map((record) => record.address);
};

// ../packages/webhook-sender/src/target/target-policy.ts
var refuse2 = (reason, message, extra = {}) => ({
  allowed: false,
  reason,
  message,
  stage: 'url',
  ...extra,
});
function judgeHost(url, loopbackOptIn) {
  const ipLiteral = url.hostname.startsWith('[');
  const host = ipLiteral ? url.hostname.slice(1, -1) : url.hostname;
  const isIp = ipLiteral || /^\d+\.\d+\.\d+\.\d+$/.test(host);
  if (isIp) {
    const verdict = classifyAddress(host, loopbackOptIn ? 'public_or_loopback' : 'public');
    if (!verdict.allowed) {
      const message = `address ${host} is not a public unicast address (${verdict.range})`;
      return refuse2(verdict.reason, message, { address: host, range: verdict.range });
    }
    const addressPolicy2 = verdict.loopback ? 'loopback_only' : 'public';
    return { allowed: true, url, hostKind: 'ip', host, addressPolicy: addressPolicy2 };
  }
  const name = judgeHostName(host, loopbackOptIn);
  if (!name.allowed) return refuse2(name.reason, name.message);
  const addressPolicy = name.localhost
    ? 'loopback_only'
    : loopbackOptIn
      ? 'public_or_loopback'
      : 'public';
  return { allowed: true, url, hostKind: 'name', host: name.name, addressPolicy };
}
function checkWebhookTargetStatic(target, options = {}) {
  const loopbackOptIn = options.dangerouslyAllowLoopback === true;
  let url;
  try {
    url = new URL(String(target));
  } catch {
    return refuse2('invalid_url', 'not an absolute URL the WHATWG URL parser accepts');
  }
  const http = url.protocol === 'http:' && loopbackOptIn;
  if (url.protocol !== 'https:' && !http) {
    return refuse2('scheme_not_allowed', `scheme ${url.protocol} is not allowed; use https:`);
  }
  if (url.username !== '' || url.password !== '') {
    return refuse2('userinfo_not_allowed', 'the URL must not contain a username or password');
  }
  if (url.port === '0') return refuse2('port_not_allowed', 'port 0 is not allowed');
  const verdict = judgeHost(url, loopbackOptIn);
  if (http && verdict.allowed && verdict.addressPolicy !== 'loopback_only') {
    const message = 'http: is allowed only for loopback hosts (loopback opt-in); use https:';
    return refuse2('scheme_not_allowed', message);
  }
  return verdict;
}
async function resolveAndCheck(host, policy, resolver, stage) {
  let addresses;
  try {
    addresses = await resolver(host);
  } catch (error) {
    const code = error.code;
    const why = typeof code === 'string' ? ` (${code})` : '';
    return refuse2('resolution_failed', `host "${host}" could not be resolved${why}`, { stage });
  }
  if (addresses.length === 0) {
    return refuse2('no_addresses', `host "${host}" has no A or AAAA address`, { stage });
  }
  for (const address of addresses) {
    const verdict = classifyAddress(address, policy);
    if (!verdict.allowed) {
      const message = `host "${host}" resolves to ${address}, which is not allowed (${verdict.range})`;
      return refuse2(verdict.reason, message, { stage, address, range: verdict.range });
    }
  }
  return addresses;
}
async function checkWebhookTarget(target, options = {}) {
  const verdict = checkWebhookTargetStatic(target, options);
  if (!verdict.allowed) return verdict;
  if (verdict.hostKind === 'ip') return { ...verdict, addresses: [verdict.host] };
  const resolver = options.resolver ?? systemResolver;
  const checked = await resolveAndCheck(verdict.host, verdict.addressPolicy, resolver, 'resolve');
  if ('allowed' in checked) return checked;
  return { ...verdict, addresses: checked };
}

// ../packages/webhook-sender/src/channels/channel-fields.ts
var MAX_SECRET_CODE_POINTS = 4096;
var MAX_NAME_CODE_POINTS = 255;
var MAX_URL_LENGTH = 2048;
var LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
var CONTROL = /[\u0000-\u001f\u007f]/;
var FIELDS = /* @__PURE__ */ new Set(['name', 'url', 'secret', 'type']);
var issue = (path, code, message) => ({
  path,
  code,
  message,
});
function checkName(value, issues) {
  if (typeof value !== 'string') {
    issues.push(issue('name', 'name_required', 'must be a string'));
    return '';
  }
  const name = value.trim();
  const length = [...name].length;
  if (length === 0) issues.push(issue('name', 'name_required', 'must not be empty'));
  if (length > MAX_NAME_CODE_POINTS)
    issues.push(issue('name', 'name_too_long', 'at most 255 characters'));
  if (CONTROL.test(name)) issues.push(issue('name', 'name_invalid', 'no control characters'));
  return name;
}
function checkUrl(value, issues, options) {
  if (typeof value !== 'string') {
    issues.push(issue('url', 'url_required', 'must be a string'));
    return '';
  }
  if (value.length > MAX_URL_LENGTH)
    issues.push(issue('url', 'url_too_long', 'at most 2048 characters'));
  const verdict = checkWebhookTargetStatic(value, options);
  if (!verdict.allowed) {
    issues.push(issue('url', `url_${verdict.reason}`, verdict.message));
    return '';
  }
  return verdict.url.href;
}
function checkSecret(value, issues) {
  if (typeof value !== 'string') {
    issues.push(issue('secret', 'secret_required', 'must be a string'));
    return '';
  }
  if (secretProblem(value) !== void 0) {
    issues.push(
      issue('secret', 'secret_too_short', `must be at least ${MIN_SECRET_LENGTH} characters`),
    );
  }
  if ([...value].length > MAX_SECRET_CODE_POINTS)
    issues.push(issue('secret', 'secret_too_long', 'at most 4096 characters'));
  if (LONE_SURROGATE.test(value))
    issues.push(
      issue('secret', 'secret_not_well_formed', 'must be well-formed Unicode (no lone surrogates)'),
    );
  return value;
}
function checkShape(input, issues) {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    throw new WebhookSenderError('invalid_channel', [
      issue('(body)', 'not_an_object', 'must be an object'),
    ]);
  }
  const record = input;
  for (const key of Object.keys(record)) {
    if (!FIELDS.has(key))
      issues.push(issue(key, 'unknown_field', 'unknown field; expected name, url, secret'));
  }
  if (record.type !== void 0 && record.type !== 'Webhook') {
    issues.push(issue('type', 'type_invalid', 'must be "Webhook"'));
  }
  return record;
}

// ../packages/webhook-sender/src/channels/channels.ts
function build(id, name, url, secret) {
  const channel = { id, type: 'Webhook', name, url };
  Object.defineProperty(channel, 'secret', { value: secret, enumerable: false });
  return Object.freeze(channel);
}
function createWebhookChannel(input, options = {}) {
  const issues = [];
  const record = checkShape(input, issues);
  const name = checkName(record.name, issues);
  const url = checkUrl(record.url, issues, options);
  const secret = checkSecret(record.secret, issues);
  if (issues.length > 0) throw new WebhookSenderError('invalid_channel', issues);
  return build(options.id ?? `wh_${randomUUID2()}`, name, url, secret);
}
function updateWebhookChannel(channel, patch, options = {}) {
  const issues = [];
  const record = checkShape(patch, issues);
  const name = record.name === void 0 ? channel.name : checkName(record.name, issues);
  const url = record.url === void 0 ? channel.url : checkUrl(record.url, issues, options);
  const keep = record.secret === void 0 || record.secret === '';
  const secret = keep ? channel.secret : checkSecret(record.secret, issues);
  if (issues.length > 0) throw new WebhookSenderError('invalid_channel', issues);
  return build(channel.id, name, url, secret);
}
function maskSecret(secret) {
  const points = [...secret];
  return points.length >= 16 ? `********${points.slice(-4).join('')}` : '********';
}
function toWebhookChannelView(channel) {
  const { id, type, name, url } = channel;
  return { id, type, name, url, secretPreview: maskSecret(channel.secret) };
}

// ../packages/webhook-sender/src/delivery/create-sender.ts
import { createSampleAlert } from '/work/wt/trace-queue/packages/webhooks/dist/node.js';

// ../packages/webhook-sender/src/alerts/serialise-alert.ts
function serialise(alert) {
  const refuse3 = (message, cause) =>
    new WebhookSenderError('invalid_alert', [{ path: '(alert)', code: 'not_an_alert', message }], {
      cause,
    });
  if (typeof alert !== 'object' || alert === null || typeof alert.id !== 'string') {
    throw refuse3('must be an alert object with a string id (see buildAlert)');
  }
  try {
    return Buffer.from(JSON.stringify(alert), 'utf8');
  } catch (error) {
    throw refuse3('cannot be serialised as JSON (circular or BigInt value)', error);
  }
}

// ../packages/webhook-sender/src/telemetry/tracing.ts
var NO_SPAN = Object.freeze({
  run: (send) => send(),
  noteState: () => {},
  end: () => {},
});
var NO_HEADERS = Object.freeze({});
var createSenderTracing = (_provider) => ({ startAttempt: () => NO_SPAN });
var traceHeaders = () => NO_HEADERS;
var isTracerProvider = (value) =>
  typeof value === 'object' && value !== null && typeof value.getTracer === 'function';

// ../packages/webhook-sender/package.json
var version = '0.1.0';

// ../packages/webhook-sender/src/version.ts
var VERSION = version;

// ../packages/webhook-sender/src/options.ts
var DEFAULT_SENDER_OPTIONS = Object.freeze({
  /** Total time of one delivery, ms. */
  timeoutMs: 1e4,
  /** Time to resolve and connect, ms. */
  connectTimeoutMs: 5e3,
  /** Most response bytes read. */
  maxResponseBodyBytes: 1024,
  /** `User-Agent` of deliveries. */
  userAgent: `cspwatch-webhook-sender/${VERSION}`,
  /** Loopback targets are refused. */
  dangerouslyAllowLoopback: false,
});
var KNOWN = /* @__PURE__ */ new Set([
  'store',
  'resolver',
  'timeoutMs',
  'connectTimeoutMs',
  'maxResponseBodyBytes',
  'userAgent',
  'now',
  'dangerouslyAllowLoopback',
  'tracerProvider',
]);
var STORE_METHODS = ['get', 'recordAttempt', 'disable', 'enable'];
function integerIssue(path, value, min, max) {
  if (value === void 0) return [];
  if (typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max)
    return [];
  return [{ path, code: 'out_of_range', message: `must be an integer from ${min} to ${max}` }];
}
function resolveSenderOptions(options = {}) {
  const issues = [];
  if (typeof options !== 'object' || options === null) {
    throw new WebhookSenderError('invalid_options', [
      { path: '(options)', code: 'not_an_object', message: 'options must be an object' },
    ]);
  }
  for (const key of Object.keys(options)) {
    if (!KNOWN.has(key))
      issues.push({ path: key, code: 'unknown_option', message: 'unknown option' });
  }
  issues.push(...integerIssue('timeoutMs', options.timeoutMs, 1, 6e5));
  issues.push(...integerIssue('connectTimeoutMs', options.connectTimeoutMs, 1, 6e5));
  issues.push(...integerIssue('maxResponseBodyBytes', options.maxResponseBodyBytes, 0, 1048576));
  const { userAgent, store, resolver, now, dangerouslyAllowLoopback } = options;
  if (
    userAgent !== void 0 &&
    (typeof userAgent !== 'string' || !/^[\x20-\x7e]+$/.test(userAgent))
  ) {
    issues.push({
      path: 'userAgent',
      code: 'invalid',
      message: 'must be non-empty printable ASCII',
    });
  }
  if (store !== void 0 && STORE_METHODS.some((name) => typeof store?.[name] !== 'function')) {
    issues.push({
      path: 'store',
      code: 'invalid',
      message: `must implement ${STORE_METHODS.join(', ')}`,
    });
  }
  for (const [path, value] of [
    ['resolver', resolver],
    ['now', now],
  ]) {
    if (value !== void 0 && typeof value !== 'function') {
      issues.push({ path, code: 'invalid', message: 'must be a function' });
    }
  }
  if (dangerouslyAllowLoopback !== void 0 && typeof dangerouslyAllowLoopback !== 'boolean') {
    issues.push({
      path: 'dangerouslyAllowLoopback',
      code: 'invalid',
      message: 'must be a boolean',
    });
  }
  if (options.tracerProvider !== void 0 && !isTracerProvider(options.tracerProvider)) {
    issues.push({
      path: 'tracerProvider',
      code: 'invalid',
      message: 'must be an OpenTelemetry TracerProvider (an object with getTracer)',
    });
  }
  if (issues.length > 0) throw new WebhookSenderError('invalid_options', issues);
  const defaults = DEFAULT_SENDER_OPTIONS;
  const timeoutMs = options.timeoutMs ?? defaults.timeoutMs;
  return {
    store: store ?? createMemoryChannelStateStore(),
    resolver: resolver ?? systemResolver,
    timeoutMs,
    connectTimeoutMs: Math.min(options.connectTimeoutMs ?? defaults.connectTimeoutMs, timeoutMs),
    maxResponseBodyBytes: options.maxResponseBodyBytes ?? defaults.maxResponseBodyBytes,
    userAgent: userAgent ?? defaults.userAgent,
    now: now ?? Date.now,
    dangerouslyAllowLoopback: dangerouslyAllowLoopback ?? defaults.dangerouslyAllowLoopback,
    tracerProvider: options.tracerProvider,
  };
}

// ../packages/webhook-sender/src/delivery/agents.ts
import { Agent } from '/work/wt/trace-queue/node_modules/.pnpm/undici@7.30.2/node_modules/undici/index.js';

// ../packages/webhook-sender/src/target/guarded-lookup.ts
var ConnectTargetRejectedError = class extends Error {
  /** Marker code, so the delivery maps it to `target_rejected`. */
  code = 'ERR_CSPWATCH_TARGET_REJECTED';
  /** The refusal, with `stage: 'connect'`. */
  rejection;
  /** @param rejection - the refusal found at connect time */
  constructor(rejection) {
    super(rejection.message);
    this.name = 'ConnectTargetRejectedError';
    this.rejection = rejection;
  }
};
function createGuardedLookup(resolver, policy) {
  return (hostname, options, callback) => {
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
          const error = new Error(`no address of family ${options.family}`);
          error.code = 'ENOTFOUND';
          callback(error, '', 0);
        } else if (options.all) callback(null, all);
        else callback(null, first.address, first.family);
      },
      (error) => callback(error, '', 0),
    );
  };
}

// ../packages/webhook-sender/src/delivery/agents.ts
function createGuardedAgents(options) {
  const agents = /* @__PURE__ */ new Map();
  return {
    forPolicy(policy) {
      let agent = agents.get(policy);
      if (!agent) {
        agent = new Agent({
          connect: {
            timeout: options.connectTimeoutMs,
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

// ../packages/webhook-sender/src/delivery/deliver.ts
import { request } from '/work/wt/trace-queue/node_modules/.pnpm/undici@7.30.2/node_modules/undici/index.js';

// ../packages/webhook-sender/src/delivery/network-error.ts
var MEANINGS = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset by the receiver',
  ENOTFOUND: 'host not found',
  EAI_AGAIN: 'host name lookup failed (temporary)',
  ETIMEDOUT: 'connection timed out',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  EPIPE: 'connection closed by the receiver while sending',
  UND_ERR_SOCKET: 'connection closed by the receiver',
  EPROTO: 'TLS handshake failed (is it an http: server?)',
  ERR_SSL_WRONG_VERSION_NUMBER: 'TLS handshake failed (is it an http: server?)',
  DEPTH_ZERO_SELF_SIGNED_CERT: 'TLS certificate is self-signed',
  SELF_SIGNED_CERT_IN_CHAIN: 'TLS certificate chain is self-signed',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'TLS certificate could not be verified',
  CERT_HAS_EXPIRED: 'TLS certificate has expired',
  ERR_TLS_CERT_ALTNAME_INVALID: 'TLS certificate does not name this host',
};
function innermostCoded(error) {
  let found;
  for (let current = error, depth = 0; current && depth < 8; depth++) {
    const fields = current;
    if (typeof fields.code === 'string') found = fields;
    current = fields.cause;
  }
  return found;
}
function whereOf(fields) {
  const { address, port, hostname } = fields;
  if (typeof address === 'string') {
    const host = address.includes(':') ? `[${address}]` : address;
    return typeof port === 'number' ? `${host}:${port}` : host;
  }
  return typeof hostname === 'string' ? hostname : '';
}
function describeNetworkError(error) {
  const coded = innermostCoded(error);
  if (coded === void 0) return error instanceof Error ? error.message : String(error);
  const code = coded.code;
  const where = whereOf(coded);
  const detail = `${code}${where ? ` ${where}` : ''}`;
  const meaning = MEANINGS[code];
  if (meaning !== void 0) return `${meaning} (${detail})`;
  const message = typeof coded.message === 'string' ? coded.message : '';
  return message && !message.includes(code) ? `${message} (${detail})` : message || detail;
}

// ../packages/webhook-sender/src/delivery/signing-variant.ts
import { signWebhookSync } from '/work/wt/trace-queue/packages/webhooks/dist/node.js';

var STALE_AGE_MS = 60 * 6e4;
function signRequest(body, secret, now, variant = 'signed') {
  if (variant === 'unsigned') return { headers: { 'content-type': 'application/json' }, body };
  const timestamp = variant === 'stale' ? now - STALE_AGE_MS : now;
  const headers = signWebhookSync({ body, secret, timestamp });
  if (variant !== 'tampered') return { headers, body };
  const tampered = new Uint8Array(body.byteLength + 1);
  tampered.set(body);
  tampered[body.byteLength] = 32;
  return { headers, body: tampered };
}

// ../packages/webhook-sender/src/delivery/deliver.ts
var TIMEOUT_CODES = /* @__PURE__ */ new Set([
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
]);
function findRejection(error) {
  for (let current = error, depth = 0; current && depth < 5; depth++) {
    if (current instanceof ConnectTargetRejectedError) return current.rejection;
    current = current.cause;
  }
  return null;
}
async function readExcerpt(body, cap) {
  const chunks = [];
  let size = 0;
  try {
    for await (const chunk of body) {
      if (size >= cap) break;
      const part = chunk.subarray(0, cap - size);
      chunks.push(part);
      size += part.length;
    }
  } catch {
    return null;
  }
  return new TextDecoder().decode(Buffer.concat(chunks));
}
function untilAborted(work, signal) {
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}
async function attemptDelivery(url, secret, body, options, agents, variant = 'signed') {
  const started = performance.now();
  const finish = (fields) => ({
    ok: false,
    status: null,
    cause: null,
    location: null,
    error: null,
    rejection: null,
    responseExcerpt: null,
    ...fields,
    durationMs: Math.round(performance.now() - started),
  });
  const signal = AbortSignal.timeout(options.timeoutMs);
  let verdict;
  try {
    verdict = await untilAborted(checkWebhookTarget(url, options), signal);
  } catch {
    return finish({
      cause: 'timeout',
      error: `resolving the target host took over the ${options.timeoutMs} ms timeout`,
    });
  }
  if (!verdict.allowed) {
    return finish({ cause: 'target_rejected', error: verdict.message, rejection: verdict });
  }
  const signed = signRequest(body, secret, options.now(), variant);
  try {
    const response = await request(verdict.url, {
      method: 'POST',
      headers: { ...signed.headers, 'user-agent': options.userAgent, ...traceHeaders() },
      body: signed.body,
      signal,
      dispatcher: agents.forPolicy(verdict.addressPolicy),
    });
    const status = response.statusCode;
    const location = response.headers.location;
    const responseExcerpt = await readExcerpt(response.body, options.maxResponseBodyBytes);
    if (status >= 200 && status < 300) return finish({ ok: true, status, responseExcerpt });
    if (status >= 300 && status < 400) {
      const where = Array.isArray(location) ? (location[0] ?? null) : (location ?? null);
      return finish({ status, cause: 'redirect', location: where, responseExcerpt });
    }
    return finish({ status, cause: 'http_status', responseExcerpt });
  } catch (error) {
    const rejection = findRejection(error);
    if (rejection) return finish({ cause: 'target_rejected', error: rejection.message, rejection });
    const code = error.code;
    if (signal.aborted || (typeof code === 'string' && TIMEOUT_CODES.has(code))) {
      const why = typeof code === 'string' ? ` (${code})` : '';
      return finish({
        cause: 'timeout',
        error: `no complete answer within the ${options.timeoutMs} ms timeout${why}`,
      });
    }
    return finish({ cause: 'network', error: describeNetworkError(error) });
  }
}

// ../packages/webhook-sender/src/delivery/delivery-channel.ts
import {
  MIN_SECRET_LENGTH as MIN_SECRET_LENGTH2,
  secretProblem as secretProblem2,
} from '/work/wt/trace-queue/packages/webhooks/dist/node.js';

function checkChannel(channel) {
  const bad = (path, message) =>
    new WebhookSenderError('invalid_channel', [{ path, code: 'invalid', message }]);
  if (typeof channel !== 'object' || channel === null) throw bad('(channel)', 'must be an object');
  if (typeof channel.id !== 'string' || channel.id === '')
    throw bad('id', 'must be a non-empty string');
  if (typeof channel.url !== 'string') throw bad('url', 'must be a string');
  if (secretProblem2(channel.secret) !== void 0) {
    throw bad('secret', `must be a string of at least ${MIN_SECRET_LENGTH2} characters`);
  }
}

// ../packages/webhook-sender/src/delivery/delivery-result.ts
var shown = (text) => (text === null ? null : redactUrls(text));
function toDeliveryResult(channelId, alertId, outcome, state) {
  const { ok, status, durationMs, cause, location, error, rejection, responseExcerpt } = outcome;
  return {
    ok,
    channelId,
    alertId,
    status,
    durationMs,
    cause,
    location: shown(location),
    error: shown(error),
    rejection,
    responseExcerpt: shown(responseExcerpt),
    consecutiveFailures: state.consecutiveFailures,
    disabled: state.disabled,
    disabledNow: state.disabledNow,
    test: state.test,
  };
}
var SKIPPED_DISABLED = Object.freeze({
  ok: false,
  status: null,
  durationMs: 0,
  cause: 'channel_disabled',
  location: null,
  error: 'the channel is disabled; re-enable it to deliver',
  rejection: null,
  responseExcerpt: null,
});

// ../packages/webhook-sender/src/delivery/create-sender.ts
function createWebhookSender(options = {}) {
  const resolved = resolveSenderOptions(options);
  const { store } = resolved;
  const agents = createGuardedAgents(resolved);
  const tracing = createSenderTracing(resolved.tracerProvider);
  const send = (channel, body) =>
    attemptDelivery(channel.url, channel.secret, body, resolved, agents);
  return {
    async deliver(channel, alert) {
      checkChannel(channel);
      const body = serialise(alert);
      const before = await store.get(channel.id);
      if (before.disabled) {
        const state = { ...before, disabledNow: false, test: false };
        return toDeliveryResult(channel.id, null, SKIPPED_DISABLED, state);
      }
      const span = tracing.startAttempt(channel, alert.id, false);
      try {
        const outcome = await span.run(() => send(channel, body));
        if (outcome.rejection?.stage === 'url') {
          const state = { ...before, disabledNow: false, test: false };
          return toDeliveryResult(channel.id, alert.id, outcome, state);
        }
        const after = await store.recordAttempt(channel.id, {
          ok: outcome.ok,
          failuresToDisable: FAILURES_BEFORE_DISABLE,
        });
        span.noteState(after);
        return toDeliveryResult(channel.id, alert.id, outcome, { ...after, test: false });
      } finally {
        span.end();
      }
    },
    async sendTest(channel) {
      checkChannel(channel);
      const alert = createSampleAlert();
      const span = tracing.startAttempt(channel, alert.id, true);
      const outcome = await span.run(() => send(channel, serialise(alert))).finally(span.end);
      const state = await store.get(channel.id);
      return toDeliveryResult(channel.id, alert.id, outcome, {
        ...state,
        disabledNow: false,
        test: true,
      });
    },
    checkTarget: (url) => checkWebhookTarget(url, resolved),
    getState: (channelId) => store.get(channelId),
    enable: (channelId) => store.enable(channelId),
    close: () => agents.close(),
  };
}

export {
  buildAlert,
  checkWebhookTarget,
  checkWebhookTargetStatic,
  createMemoryChannelStateStore,
  createWebhookChannel,
  createWebhookSender,
  DEFAULT_SENDER_OPTIONS,
  FAILURES_BEFORE_DISABLE,
  isWebhookSenderError,
  maskSecret,
  toWebhookChannelView,
  updateWebhookChannel,
  VERSION,
  WebhookSenderError,
};
