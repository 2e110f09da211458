import type { CspViolationNewTypeEvent } from '@cspwatch/webhooks';
import type { RequestHandler } from 'msw';
import { expectTypeOf, test } from 'vitest';
import {
  createMockService,
  type InboxDelivery,
  type MockAlertRecord,
  type MockScenarioInput,
  type MockServer,
  type MockService,
  startMockServer,
} from '.';
import { createMockHandlers } from './msw';

test('the agreed shape of the public API', () => {
  expectTypeOf(startMockServer).returns.resolves.toEqualTypeOf<MockServer>();
  expectTypeOf<MockServer['url']>().toEqualTypeOf<string>();
  expectTypeOf<MockServer['tokens']>().toEqualTypeOf<{
    admin: string;
    member: string;
    noApiKeysFeature: string;
    apiKey: string;
  }>();
  expectTypeOf<MockServer['workspaceIds']>().toEqualTypeOf<{
    main: string;
    noApiKeysFeature: string;
  }>();
  expectTypeOf<MockServer['close']>().returns.toEqualTypeOf<Promise<void>>();
  expectTypeOf(createMockService).returns.toEqualTypeOf<MockService>();
  expectTypeOf<MockService['fetch']>().toEqualTypeOf<(request: Request) => Promise<Response>>();
  expectTypeOf<InboxDelivery['verified']>().toEqualTypeOf<boolean>();
  expectTypeOf<InboxDelivery['errorCode']>().toEqualTypeOf<string | undefined>();
  expectTypeOf(createMockHandlers).returns.toEqualTypeOf<RequestHandler[]>();
  expectTypeOf<MockServer['controlToken']>().toEqualTypeOf<string | undefined>();
  expectTypeOf<MockService['seed']>().parameter(0).toEqualTypeOf<MockScenarioInput | undefined>();
  expectTypeOf<MockService['alerts']>().toEqualTypeOf<readonly MockAlertRecord[]>();
  expectTypeOf<MockAlertRecord['alert']>().toEqualTypeOf<CspViolationNewTypeEvent>();
  expectTypeOf<MockService['idle']>().returns.toEqualTypeOf<Promise<void>>();
});

test('options are checked by the compiler too', () => {
  // @ts-expect-error the port is a number
  void startMockServer({ port: '4010' });
  // @ts-expect-error faults have known names only
  void startMockServer({ faults: { latency: 5 } });
  // @ts-expect-error the loud option is a boolean
  void startMockServer({ dangerouslyAllowLoopbackWebhooks: 'yes' });
  // @ts-expect-error a scenario needs its workspaces
  createMockService().seed({ users: [] });
});
