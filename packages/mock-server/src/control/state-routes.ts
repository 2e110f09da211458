/** Control API: reset, scenario, state snapshot and faults. */

import { json, validationProblem } from '../http/problem';
import { readJson } from '../http/request-body';
import type { RouteContext, RouteHandler } from '../routes/context';
import { parseScenario } from '../scenario/parse';
import { readValid } from './body';
import { FaultsRequestSchema } from './request-schemas';

/** `POST /_mock/reset`: back to the seeded state (fixtures or the last scenario). */
export const resetState: RouteHandler = async (_request, _params, context) => {
  await context.alerts.idle();
  context.reset();
  return new Response(null, { status: 204 });
};

/** What a test needs after seeding: every credential and endpoint, by id. */
export async function seedSummary(context: RouteContext): Promise<unknown> {
  const snapshot = context.store.snapshot();
  const keyTokens = context.store.apiKeyTokensById();
  return {
    workspaces: snapshot.workspaces.map(({ id, name }) => ({ id, name })),
    users: snapshot.users.map(({ id, email, token, roles }) => ({ id, email, token, roles })),
    apiKeys: snapshot.apiKeys.map(({ id, workspaceId, name }) => ({
      id,
      workspaceId,
      name,
      token: keyTokens.get(id) ?? null,
    })),
    websites: snapshot.websites.map(({ id, workspaceId, name, endpointUrl }) => ({
      id,
      workspaceId,
      name,
      endpointUrl,
    })),
    webhookChannels: await context.webhookChannels.list(),
    alertRules: context.alerts.rules,
  };
}

/** `POST /_mock/scenario`: validates a scenario and makes it the seeded state. */
export const seedScenario: RouteHandler = async (request, _params, context) => {
  const body = await readJson(request);
  if (!body.ok) return body.response;
  const checked = parseScenario(body.value, context.dangerouslyAllowLoopbackWebhooks);
  if (!checked.ok) return validationProblem(checked.errors);
  await context.alerts.idle();
  context.seed(checked.value);
  return json(await seedSummary(context), 201);
};

/** `DELETE /_mock/scenario`: back to the built-in fixtures. */
export const dropScenario: RouteHandler = async (_request, _params, context) => {
  await context.alerts.idle();
  context.seed(undefined);
  return json(await seedSummary(context));
};

/** `GET /_mock/state`: the seeded credentials and endpoints, as after a seed. */
export const readState: RouteHandler = async (_request, _params, context) =>
  json(await seedSummary(context));

/** `GET /_mock/faults`: the fault settings in force. */
export const readFaults: RouteHandler = async (_request, _params, { faults }) =>
  json(faults.settings);

/** `PUT /_mock/faults`: replaces the fault settings (`{}` turns every fault off), as `setFaults`. */
export const replaceFaults: RouteHandler = async (request, _params, { faults }) => {
  const body = await readValid(request, FaultsRequestSchema);
  if (!body.ok) return body.response;
  faults.configure(body.value);
  return json(faults.settings);
};
