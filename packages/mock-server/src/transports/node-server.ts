import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { redactUrls } from '@cspwatch/contract';
import { checkFunction, checkNonEmptyString, type Issue } from '@cspwatch/internal';
import { createMockService, type MockService, newRequestId } from '../core/app';
import { checkServiceOptions, checkWith, type MockServiceOptions, throwIfIssues } from '../options';
import { integer } from '../rules/fields';
import type { MockTokens, MockWorkspaceIds } from '../store/fixtures';
import { randomHex } from '../store/tokens';
import { answerClientError, handleNodeRequest } from './node-adapter';

/** Options of {@link startMockServer}. */
export interface MockServerOptions extends Omit<MockServiceOptions, 'baseUrl'> {
  /** Port to listen on; 0 picks a free one. @default 0 */
  port?: number;
  /** Address to listen on. @default '127.0.0.1' */
  host?: string;
  /**
   * Called once per answered request, when the answer is sent (the CLI logs a line with it).
   * @default undefined
   */
  onRequest?: (entry: MockRequestLogEntry) => void;
}

/** One answered request, as {@link MockServerOptions.onRequest} receives it. */
export interface MockRequestLogEntry {
  /** HTTP method. */
  method: string;
  /**
   * Path and query string as requested, each query value replaced by `[redacted]` (the control
   * API takes its token as `?token=`), like every URL the SDK prints or logs.
   */
  path: string;
  /** The status answered. */
  status: number;
  /** Time from the request's arrival to the end of the answer, in ms. */
  durationMs: number;
}

/** A running mock server. */
export interface MockServer {
  /** Base URL without a trailing slash, e.g. `http://127.0.0.1:54321`. */
  url: string;
  /** Bearer tokens of the seeded users and API key. */
  tokens: MockTokens;
  /** Ids of the seeded workspaces. */
  workspaceIds: MockWorkspaceIds;
  /** The service behind the server: store, inbox, faults. */
  service: MockService;
  /**
   * The token the control API (`/_mock/…`) needs, or `undefined` when it needs none (the
   * default on a loopback address). Bound beyond loopback without a `controlToken` option,
   * the server makes a random one.
   */
  controlToken: string | undefined;
  /** Restores the seeded state (see {@link MockService.reset}). */
  reset(): void;
  /** Stops listening, ends open connections and hung requests; resolves when closed. */
  close(): Promise<void>;
}

/** Whether an address only this machine can reach: 127.0.0.0/8, ::1 or `localhost`. */
export function isLoopbackHost(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, '').toLowerCase();
  return (
    bare === 'localhost' ||
    bare === '::1' ||
    /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(bare) ||
    /^::ffff:127\./.test(bare)
  );
}

/**
 * Throws `invalid_options` unless {@link startMockServer} can start with `options`: the
 * checks it runs first, also run by the CLI before it starts anything.
 */
export function checkMockServerOptions(options: MockServerOptions): void {
  const issues: Issue[] = [];
  checkServiceOptions(issues, options, ['port', 'host', 'onRequest']);
  checkWith(issues, 'port', integer({ min: 0, max: 65_535 }), options.port);
  checkNonEmptyString(issues, 'host', options.host);
  checkFunction(issues, 'onRequest', options.onRequest);
  throwIfIssues(issues);
}

/** Calls `onRequest` when the answer has been sent; a throwing logger is ignored. */
function logWhenFinished(
  req: IncomingMessage,
  res: ServerResponse,
  onRequest: (entry: MockRequestLogEntry) => void,
): void {
  const started = performance.now();
  res.once('finish', () => {
    try {
      onRequest({
        method: req.method ?? '',
        path: redactUrls(req.url ?? ''),
        status: res.statusCode,
        durationMs: Math.round(performance.now() - started),
      });
    } catch {
      // Logging must never break the service.
    }
  });
}

/**
 * Starts the mock service on a real HTTP server (node:http), on 127.0.0.1 and a free port
 * by default. Bound beyond loopback (e.g. `host: '0.0.0.0'` in a container), the control
 * API needs a control token: the `controlToken` option, or a random one in `controlToken`.
 *
 * @example
 * ```ts
 * const server = await startMockServer({ apiKeyCount: 120 });
 * const response = await fetch(`${server.url}/v1/workspaces/${server.workspaceIds.main}/api-keys`, {
 *   headers: { authorization: `Bearer ${server.tokens.admin}` },
 * });
 * await server.close();
 * ```
 */
export async function startMockServer(options: MockServerOptions = {}): Promise<MockServer> {
  const { port = 0, host = '127.0.0.1', onRequest, ...given } = options;
  const controlToken =
    given.controlToken ?? (isLoopbackHost(host) ? undefined : `mock_ctl_${randomHex(40)}`);
  const serviceOptions = { ...given, ...(controlToken === undefined ? {} : { controlToken }) };
  checkMockServerOptions({ ...options, ...serviceOptions });
  let service: MockService | undefined;
  let origin = '';
  const server = createServer((req, res) => {
    if (onRequest) logWhenFinished(req, res, onRequest);
    if (!service) {
      // Only in the instant between listening and knowing the port the service needs.
      res.writeHead(503, { 'retry-after': '1', 'x-request-id': newRequestId() }).end();
      return;
    }
    handleNodeRequest(service, origin, req, res).catch(() => res.destroy());
  });
  server.on('clientError', answerClientError);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  origin = `http://${address.family === 'IPv6' ? `[${address.address}]` : address.address}:${address.port}`;
  try {
    service = createMockService({ ...serviceOptions, baseUrl: origin });
  } catch (error) {
    server.close();
    throw error;
  }
  const ready = service;
  return {
    url: origin,
    tokens: ready.tokens,
    workspaceIds: ready.workspaceIds,
    service: ready,
    controlToken,
    reset: () => ready.reset(),
    close: () =>
      new Promise<void>((resolve) => {
        ready.inbox.releaseHanging();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
