/** Every route of the control API, under the reserved prefix `/_mock/`. */
import type { Route } from '../routes/table';
import {
  clearAllInboxDeliveries,
  clearInboxDeliveries,
  createInboxChannel,
  listInboxChannels,
  listInboxDeliveries,
  setInboxResponse,
} from './inbox-routes';
import { serveMockOpenApi } from './openapi-route';
import { inboxPage, pageFragment, pageRevision } from './page-routes';
import {
  dropScenario,
  readFaults,
  readState,
  replaceFaults,
  resetState,
  seedScenario,
} from './state-routes';
import { endToken, issueToken } from './token-routes';
import { triggerRoute } from './trigger-route';
import {
  createChannel,
  createRule,
  deleteChannel,
  deleteRule,
  listAlerts,
  listChannels,
  listRules,
  testChannel,
  updateChannel,
} from './webhook-routes';

/** The path prefix reserved for the control API and the inbox page. */
export const CONTROL_PREFIX = '/_mock';

const control = (path: string, methods: Route['methods']): Route => ({
  segments: ['_mock', ...path.split('/')],
  rest: false,
  methods,
});

/** The control API's routes. */
export const CONTROL_ROUTES: readonly Route[] = [
  control('', { GET: inboxPage }),
  control('openapi.json', { GET: serveMockOpenApi }),
  control('fragment', { GET: pageFragment }),
  control('revision', { GET: pageRevision }),
  control('reset', { POST: resetState }),
  control('scenario', { POST: seedScenario, DELETE: dropScenario }),
  control('state', { GET: readState }),
  control('faults', { GET: readFaults, PUT: replaceFaults }),
  control('tokens', { POST: issueToken }),
  control('tokens/expire', { POST: endToken('expired') }),
  control('tokens/revoke', { POST: endToken('revoked') }),
  control('webhook-channels', { GET: listChannels, POST: createChannel }),
  control('webhook-channels/{channelId}', { PATCH: updateChannel, DELETE: deleteChannel }),
  control('webhook-channels/{channelId}/test', { POST: testChannel }),
  control('alert-rules', { GET: listRules, POST: createRule }),
  control('alert-rules/{ruleId}', { DELETE: deleteRule }),
  control('alerts', { GET: listAlerts }),
  control('inbox/channels', { GET: listInboxChannels, POST: createInboxChannel }),
  control('inbox/deliveries', { DELETE: clearAllInboxDeliveries }),
  control('inbox/channels/{channelId}/response', { PUT: setInboxResponse }),
  control('inbox/channels/{channelId}/deliveries', {
    GET: listInboxDeliveries,
    DELETE: clearInboxDeliveries,
  }),
  control('trigger', { POST: triggerRoute }),
];
