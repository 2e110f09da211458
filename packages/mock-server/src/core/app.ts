import { issue } from '@cspwatch/internal';
import type { MockAlertRecord } from '../alerts/alert-flow';
import { problem } from '../http/problem';
import type { MockInbox } from '../inbox/types';
import {
  invalidOptions,
  type MockServiceOptions,
  resolveFaults,
  resolveServiceOptions,
} from '../options';
import type { MockFaultOptions } from '../rules/faults';
import { parseScenario } from '../scenario/parse';
import type { MockScenarioInput } from '../scenario/schema';
import type { MockTokens, MockWorkspaceIds } from '../store/fixtures';
import type { MockStore } from '../store/store-types';
import { randomHex } from '../store/tokens';
import { serveTraced } from '../telemetry/tracing';
import { VERSION } from '../version';
import { dispatch } from './dispatch';
import { createServiceContext } from './service-context';

/** The whole mock service, independent of any transport. */
export interface MockService {
  /** Answers one request; `Response.error()` stands for a dropped connection. */
  fetch(request: Request): Promise<Response>;
  /** The in-memory state: inspect it or change it between requests. */
  store: MockStore;
  /** The webhook inbox. */
  inbox: MockInbox;
  /** The origin the service is reached at (inbox channel URLs start with it). */
  readonly baseUrl: string;
  /** Bearer tokens of the seeded users and API key. */
  readonly tokens: MockTokens;
  /** Ids of the seeded workspaces. */
  readonly workspaceIds: MockWorkspaceIds;
  /** Replaces the fault settings (all off when called with `{}`). */
  setFaults(faults: MockFaultOptions): void;
  /** Restores the seeded state, removes inbox channels, releases hung requests, resets faults to the options given at creation. */
  reset(): void;
  /**
   * Makes a scenario (workspaces, plans, users, API keys, websites, webhook channels, alert
   * rules) the seeded state, then resets to it; `undefined` goes back to the built-in
   * fixtures. Throws `invalid_options` listing every problem. Same as `POST /_mock/scenario`.
   */
  seed(scenario: MockScenarioInput | undefined): void;
  /** The alerts the service raised, newest first, with their delivery results. */
  readonly alerts: readonly MockAlertRecord[];
  /** Resolves when every alert delivery started so far has finished. */
  idle(): Promise<void>;
}

/** A fresh `x-request-id` value: `req_` and 24 random hex digits. */
export function newRequestId(): string {
  return `req_${randomHex(24)}`;
}

/**
 * Creates the mock service as a fetch handler: the REST API, the webhook inbox and fault
 * injection over one in-memory store. The node server, the msw handlers and the CLI all
 * wrap this one function, so they cannot disagree.
 *
 * @example
 * ```ts
 * const service = createMockService({ apiKeyCount: 3 });
 * const response = await service.fetch(
 *   new Request(`http://localhost/v1/workspaces/${service.workspaceIds.main}/api-keys`, {
 *     headers: { authorization: `Bearer ${service.tokens.admin}` },
 *   }),
 * );
 * ```
 */
export function createMockService(options: MockServiceOptions = {}): MockService {
  const settings = resolveServiceOptions(options);
  const context = createServiceContext(settings);
  const { store, inbox, faults, alerts } = context;
  return {
    store,
    inbox,
    baseUrl: settings.baseUrl,
    get tokens() {
      return store.fixtures.tokens;
    },
    get workspaceIds() {
      return store.fixtures.workspaceIds;
    },
    get alerts() {
      return alerts.log;
    },
    fetch(request) {
      return serveTraced(request, VERSION, settings.tracerProvider, async () => {
        let response: Response;
        try {
          response = await dispatch(request, context, settings.controlToken);
        } catch {
          response = problem({
            status: 500,
            code: 'server_error',
            detail: 'The mock server failed to handle this request.',
          });
        }
        if (response.type === 'error') return response;
        response.headers.set('x-request-id', newRequestId());
        return response;
      });
    },
    setFaults(next) {
      faults.configure(resolveFaults(next));
    },
    reset: context.reset,
    seed(input) {
      if (input === undefined) return context.seed(undefined);
      const checked = parseScenario(input, settings.dangerouslyAllowLoopbackWebhooks);
      if (!checked.ok) {
        const issues = checked.errors.map(({ path, message }) => issue(path, 'invalid', message));
        throw invalidOptions(issues, 'scenario');
      }
      context.seed(checked.value);
    },
    idle: () => alerts.idle(),
  };
}
