import { afterAll, beforeAll, beforeEach, describe } from 'vitest';
import { alertFlowTests } from './suite/alert-flow';
import { apiKeysTests } from './suite/api-keys';
import { apiKeysAccessTests } from './suite/api-keys-access';
import { createSuiteContext } from './suite/context';
import { controlTests } from './suite/control';
import { faultsTests } from './suite/faults';
import { inboxTests } from './suite/inbox';
import { reportsTests } from './suite/reports';
import { resetTests } from './suite/reset';
import { routingTests } from './suite/routing';
import { websiteLimitTests } from './suite/website-limit';
import { websitesTests } from './suite/websites';
import type { Harness, Transport } from './transports';

/**
 * The behaviour of the service, written once and run over every transport: the real
 * HTTP server and the msw handlers must answer alike.
 */
export function defineBehaviourSuite(transport: Transport): void {
  describe(`mock service over ${transport.name}`, () => {
    let harness: Harness | undefined;
    beforeAll(async () => {
      harness = await transport.start({
        apiKeyCount: 60,
        websiteLimit: 10,
        dangerouslyAllowLoopbackWebhooks: true,
      });
    });
    afterAll(() => harness?.close());
    beforeEach(() => harness?.service.reset());

    const context = createSuiteContext(() => {
      if (!harness) throw new Error('The harness is not started.');
      return harness;
    });
    apiKeysTests(context);
    apiKeysAccessTests(context);
    websitesTests(context);
    websiteLimitTests(context);
    reportsTests(context);
    routingTests(context);
    faultsTests(context);
    inboxTests(context);
    resetTests(context);
    controlTests(context);
    alertFlowTests(context);
  });
}
