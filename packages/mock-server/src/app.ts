import { AlertFlow, type MockAlertRecord } from './alerts/alert-flow';
import { WebhookChannels } from './alerts/webhook-channels';
import { checkControlAccess } from './control/guard';
import { CONTROL_PREFIX, CONTROL_ROUTES } from './control/table';
import { CursorCodec } from './cursor';
import { MockServerError } from './errors';
import { FaultInjector } from './faults';
import type { MockTokens, MockWorkspaceIds } from './fixtures';
import { Inbox } from './inbox';
import type { MockInbox } from './inbox-types';
import {
  type MockFaultOptions,
  type MockServiceOptions,
  resolveFaults,
  resolveServiceOptions,
} from './options';
import { problem } from './problem';
import type { RouteContext } from './routes/context';
import { PageCache } from './routes/page-cache';
import { matchRoute } from './routes/table';
import { buildScenarioState } from './scenario/build';
import { type CheckedScenario, parseScenario } from './scenario/parse';
import type { MockScenarioInput } from './scenario/types';
import { InMemoryStore } from './store';
import type { MockStore } from './store-types';

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

/** Random bytes drawn in blocks: one `getRandomValues` call per 341 request ids, not per request. */
const idPool = { bytes: new Uint8Array(4092), offset: 4092 };

/** A fresh `x-request-id` value: `req_` and 24 random hex digits. */
export function newRequestId(): string {
  if (idPool.offset + 12 > idPool.bytes.length) {
    crypto.getRandomValues(idPool.bytes);
    idPool.offset = 0;
  }
  const start = idPool.offset;
  idPool.offset += 12;
  return `req_${Buffer.from(idPool.bytes.buffer, start, 12).toString('hex')}`;
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
  const { baseUrl, controlToken, dangerouslyAllowLoopbackWebhooks } = settings;
  const store = new InMemoryStore(settings.seed, settings);
  const revision = { value: 0, bump: () => void revision.value++ };
  const inbox = new Inbox(baseUrl, revision.bump);
  const faults = new FaultInjector(settings.faults, settings.seed ^ 0x5eed);
  const webhookChannels = new WebhookChannels(dangerouslyAllowLoopbackWebhooks);
  const alerts = new AlertFlow(webhookChannels, baseUrl, revision.bump);
  let scenario: CheckedScenario | undefined;

  function reset(): void {
    store.reset();
    inbox.reset();
    faults.configure(settings.faults);
    alerts.clear();
    webhookChannels.clear();
    for (const { channel, enabled } of scenario?.channels ?? [])
      void webhookChannels.add(channel, enabled);
    alerts.rules = (scenario?.scenario.alertRules ?? []).map((rule, index) => ({
      id: rule.id ?? `rule_${index + 1}`,
      name: rule.name,
      websiteId: rule.websiteId,
      channelIds: [...rule.channelIds],
    }));
    revision.bump();
  }

  function seed(next: CheckedScenario | undefined): void {
    scenario = next;
    store.seed(next && ((prng) => buildScenarioState(next.scenario, prng, baseUrl)));
    reset();
  }

  const context: RouteContext = {
    store,
    inbox,
    cursors: new CursorCodec(),
    pages: new PageCache(),
    alerts,
    webhookChannels,
    faults,
    baseUrl,
    dangerouslyAllowLoopbackWebhooks,
    revision,
    reset,
    seed,
  };

  async function dispatch(request: Request): Promise<Response> {
    const { pathname } = new URL(request.url);
    if (pathname === CONTROL_PREFIX && (request.method === 'GET' || request.method === 'HEAD')) {
      const { search } = new URL(request.url);
      return new Response(null, {
        status: 308,
        headers: { location: `${CONTROL_PREFIX}/${search}` },
      });
    }
    const isControl = pathname === CONTROL_PREFIX || pathname.startsWith(`${CONTROL_PREFIX}/`);
    if (isControl) {
      const denied = await checkControlAccess(request, controlToken);
      if (denied) return denied;
    }
    const matched = matchRoute(pathname, isControl ? CONTROL_ROUTES : undefined);
    if (!matched)
      return problem({
        status: 404,
        code: 'not_found',
        detail: `No route for ${request.method} ${pathname.slice(0, 200)}.`,
      });
    const { route, params } = matched;
    const handler = route.methods[request.method];
    if (!handler) {
      const allow = Object.keys(route.methods).join(', ');
      return problem({
        status: 405,
        code: 'method_not_allowed',
        detail: `${request.method.slice(0, 20)} is not allowed here; use ${allow}.`,
        headers: { allow },
      });
    }
    if (route.rest) {
      const fault = await faults.apply(request);
      if (fault) return fault;
    }
    return handler(request, params, context);
  }

  return {
    store,
    inbox,
    baseUrl,
    get tokens() {
      return store.fixtures.tokens;
    },
    get workspaceIds() {
      return store.fixtures.workspaceIds;
    },
    get alerts() {
      return alerts.log;
    },
    async fetch(request) {
      let response: Response;
      try {
        response = await dispatch(request);
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
    },
    setFaults(next) {
      faults.configure(resolveFaults(next));
    },
    reset,
    seed(input) {
      if (input === undefined) return seed(undefined);
      const checked = parseScenario(input, dangerouslyAllowLoopbackWebhooks);
      if (!checked.ok) {
        const list = checked.errors.map((error) => `${error.path}: ${error.message}`).join('; ');
        throw new MockServerError('invalid_options', `Invalid scenario: ${list}`);
      }
      seed(checked.value);
    },
    idle: () => alerts.idle(),
  };
}
