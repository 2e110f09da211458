/**
 * The state of one mock service and the two operations on all of it: reset to the seeded
 * state, and seed a scenario. Every route handler gets this context.
 */
import { AlertFlow } from '../alerts/alert-flow';
import { TriggerLog } from '../alerts/trigger-log';
import { WebhookChannels } from '../alerts/webhook-channels';
import { Inbox } from '../inbox/inbox';
import type { ResolvedServiceOptions } from '../options';
import type { RouteContext } from '../routes/context';
import { CursorCodec } from '../routes/cursor';
import { FaultInjector } from '../routes/faults';
import { PageCache } from '../routes/page-cache';
import { buildScenarioState } from '../scenario/build';
import type { CheckedScenario } from '../scenario/parse';
import { InMemoryStore } from '../store/store';

/** Builds the state of a service from its checked options. */
export function createServiceContext(settings: ResolvedServiceOptions): RouteContext {
  const { baseUrl, dangerouslyAllowLoopbackWebhooks } = settings;
  const store = new InMemoryStore(settings.seed, settings);
  const revision = { value: 0, bump: () => void revision.value++ };
  const inbox = new Inbox(baseUrl, revision.bump);
  const faults = new FaultInjector(settings.faults, settings.seed ^ 0x5eed);
  const webhookChannels = new WebhookChannels(dangerouslyAllowLoopbackWebhooks);
  const alerts = new AlertFlow(webhookChannels, baseUrl, revision.bump);
  const triggers = new TriggerLog(baseUrl, revision.bump);
  let scenario: CheckedScenario | undefined;

  function reset(): void {
    store.reset();
    inbox.reset();
    triggers.clear();
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

  return {
    store,
    inbox,
    cursors: new CursorCodec(),
    pages: new PageCache(),
    alerts,
    triggers,
    webhookChannels,
    faults,
    baseUrl,
    dangerouslyAllowLoopbackWebhooks,
    revision,
    reset,
    seed,
  };
}
