import type { AlertFlow } from '../alerts/alert-flow';
import type { TriggerLog } from '../alerts/trigger-log';
import type { WebhookChannels } from '../alerts/webhook-channels';
import type { Inbox } from '../inbox/inbox';
import type { CheckedScenario } from '../scenario/parse';
import type { InMemoryStore } from '../store/store';
import type { CursorCodec } from './cursor';
import type { FaultInjector } from './faults';
import type { PageCache } from './page-cache';

/** What every route handler gets: the shared state of one service. */
export interface RouteContext {
  store: InMemoryStore;
  inbox: Inbox;
  cursors: CursorCodec;
  /** Serialised key-listing pages of the current store revision. */
  pages: PageCache;
  alerts: AlertFlow;
  /** Triggers sent to receivers outside this mock, for the inbox page. */
  triggers: TriggerLog;
  webhookChannels: WebhookChannels;
  faults: FaultInjector;
  /** The origin the service is reached at. */
  baseUrl: string;
  /** Whether the service's webhook channels may point at loopback addresses. */
  dangerouslyAllowLoopbackWebhooks: boolean;
  /** A counter bumped on every change the inbox page shows. */
  revision: { value: number; bump(): void };
  /** Restores the seeded state (see `MockService.reset`). */
  reset(): void;
  /** Makes a checked scenario the seeded state (`undefined`: the built-in fixtures), then resets. */
  seed(scenario: CheckedScenario | undefined): void;
}

/** A route handler: the request, its decoded path parameters and the service state. */
export type RouteHandler = (
  request: Request,
  params: string[],
  context: RouteContext,
) => Promise<Response>;
