/**
 * Options of `createWebhookSender`: one documented type, defaults in one frozen object, all
 * validated at construction (unknown keys too: a typo in a security option must be loud).
 */
import {
  checkBoolean,
  checkFunction,
  checkInteger,
  checkUnknownKeys,
  type Issue,
  isOptionsObject,
  issue,
} from '@cspwatch/internal';
import { type ChannelStateStore, createMemoryChannelStateStore } from './channels/channel-state';
import { throwIfIssues, WebhookSenderError } from './errors';
import type { HostResolver } from './target/resolver';
import { systemResolver } from './target/resolver';
import type { TargetPolicyOptions } from './target/target-policy';
import { isTracerProvider, type SenderTracerProvider } from './telemetry/tracing';
import { VERSION } from './version';

/** Options of {@link createWebhookSender}. Every field is optional. */
export interface WebhookSenderOptions extends TargetPolicyOptions {
  /**
   * Where failure counts and the disabled flag live.
   * @default a new in-memory store ({@link createMemoryChannelStateStore})
   */
  readonly store?: ChannelStateStore;
  /**
   * Total time allowed for one delivery (connect, headers and the capped body), in ms.
   * @default 10000
   */
  readonly timeoutMs?: number;
  /**
   * Time allowed to resolve and connect (TCP + TLS), in ms; capped at `timeoutMs`.
   * @default 5000
   */
  readonly connectTimeoutMs?: number;
  /**
   * Most bytes of the response body read (kept as `responseExcerpt`); the rest is discarded.
   * @default 1024
   */
  readonly maxResponseBodyBytes?: number;
  /**
   * The `User-Agent` header of every delivery.
   * @default `cspwatch-webhook-sender/${VERSION}`
   */
  readonly userAgent?: string;
  /**
   * Clock for the signature timestamp, in Unix milliseconds.
   * @default Date.now
   */
  readonly now?: () => number;
  /**
   * Where the spans of deliveries go (`@opentelemetry/api`, an optional peer).
   * @default the global tracer provider: no spans until one is registered
   */
  readonly tracerProvider?: SenderTracerProvider;
}

/** Defaults of {@link WebhookSenderOptions}. */
export const DEFAULT_SENDER_OPTIONS = Object.freeze({
  /** Total time of one delivery, ms. */
  timeoutMs: 10_000,
  /** Time to resolve and connect, ms. */
  connectTimeoutMs: 5_000,
  /** Most response bytes read. */
  maxResponseBodyBytes: 1024,
  /** `User-Agent` of deliveries. */
  userAgent: `cspwatch-webhook-sender/${VERSION}`,
  /** Loopback targets are refused. */
  dangerouslyAllowLoopback: false,
} as const);

/** Options after defaults and validation. */
export interface ResolvedSenderOptions {
  readonly store: ChannelStateStore;
  readonly resolver: HostResolver;
  readonly timeoutMs: number;
  readonly connectTimeoutMs: number;
  readonly maxResponseBodyBytes: number;
  readonly userAgent: string;
  readonly now: () => number;
  readonly dangerouslyAllowLoopback: boolean;
  readonly tracerProvider: SenderTracerProvider | undefined;
}

const KNOWN = [
  'store',
  'resolver',
  'timeoutMs',
  'connectTimeoutMs',
  'maxResponseBodyBytes',
  'userAgent',
  'now',
  'dangerouslyAllowLoopback',
  'tracerProvider',
];
const STORE_METHODS = ['get', 'recordAttempt', 'disable', 'enable'] as const;
const MS = { min: 1, max: 600_000, unit: 'ms' };

/** Applies defaults and validates; throws `WebhookSenderError` `invalid_options`. */
export function resolveSenderOptions(options: WebhookSenderOptions = {}): ResolvedSenderOptions {
  if (!isOptionsObject(options as unknown)) {
    throw new WebhookSenderError('invalid_options', [
      issue('(options)', 'not_an_object', 'options must be an object'),
    ]);
  }
  const issues: Issue[] = [];
  checkUnknownKeys(issues, options, KNOWN);
  checkInteger(issues, 'timeoutMs', options.timeoutMs, MS);
  checkInteger(issues, 'connectTimeoutMs', options.connectTimeoutMs, MS);
  checkInteger(issues, 'maxResponseBodyBytes', options.maxResponseBodyBytes, {
    min: 0,
    max: 1_048_576,
    unit: 'bytes',
  });
  const { userAgent, store, resolver, now, dangerouslyAllowLoopback } = options;
  if (
    userAgent !== undefined &&
    (typeof userAgent !== 'string' || !/^[\x20-\x7e]+$/.test(userAgent))
  ) {
    issues.push(issue('userAgent', 'invalid', 'must be non-empty printable ASCII'));
  }
  if (store !== undefined && STORE_METHODS.some((name) => typeof store?.[name] !== 'function')) {
    issues.push(issue('store', 'invalid', `must implement ${STORE_METHODS.join(', ')}`));
  }
  checkFunction(issues, 'resolver', resolver);
  checkFunction(issues, 'now', now);
  checkBoolean(issues, 'dangerouslyAllowLoopback', dangerouslyAllowLoopback);
  if (options.tracerProvider !== undefined && !isTracerProvider(options.tracerProvider))
    issues.push(
      issue(
        'tracerProvider',
        'wrong_type',
        'must be an OpenTelemetry TracerProvider (an object with getTracer)',
      ),
    );
  throwIfIssues('invalid_options', issues);
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
