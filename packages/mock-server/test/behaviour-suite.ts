import { afterAll, beforeAll, beforeEach, describe, expect } from 'vitest';
import {
  type ConformanceRecord,
  checkResponsesAgainstDocument,
  documentedMockSuccesses,
  documentedResponses,
} from './document-conformance';
import { alertFlowTests } from './suite/alert-flow';
import { apiKeysTests } from './suite/api-keys';
import { apiKeysAccessTests } from './suite/api-keys-access';
import { createSuiteContext } from './suite/context';
import { contractTests } from './suite/contract';
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
    // Every response is checked against openapi.json (REST) or the mock's own openapi.json
    // (control API, inbox, intake); every documented REST status and mock success must occur.
    let conformance: ConformanceRecord | undefined;
    beforeAll(() => {
      conformance = checkResponsesAgainstDocument();
    });
    afterAll(() => {
      conformance?.restore();
      expect(documentedResponses().filter((key) => !conformance?.seen.has(key))).toEqual([]);
      expect(documentedMockSuccesses().filter((key) => !conformance?.seen.has(key))).toEqual([]);
    });

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
    contractTests(context);
    controlTests(context);
    alertFlowTests(context);
  });
}
