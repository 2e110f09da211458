import { CreateWebsiteRequestSchema, toFieldErrors } from '@cspwatch/contract';
import { json, type ProblemFieldError, problem, validationProblem } from '../http/problem';
import { readJson } from '../http/request-body';
import type { MockWebsiteSettings } from '../store/resources';
import { CREATOR_WEBSITE_ROLE, DEFAULT_WEBSITE_SETTINGS } from '../store/website-defaults';
import { authorize } from './auth';
import type { RouteHandler } from './context';

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Validates the create-website body with the contract's request schema, the one the client
 * checks before sending: every invalid or unknown field, with dot paths.
 */
function parseBody(
  body: unknown,
): { name: string; url: string; settings: MockWebsiteSettings } | ProblemFieldError[] {
  if (!isObject(body))
    return [
      {
        path: '(body)',
        message: 'Send a JSON object such as {"name": "Shop", "url": "https://shop.example.com"}.',
      },
    ];
  const result = CreateWebsiteRequestSchema.safeParse(body);
  if (!result.success) return toFieldErrors(result.error.issues);
  const { name, url, settings = {} } = result.data;
  const defaults = DEFAULT_WEBSITE_SETTINGS;
  return {
    name,
    url,
    settings: {
      allowedOrigins: settings.allowedOrigins ?? [],
      dropQueryAndFragments: settings.dropQueryAndFragments ?? defaults.dropQueryAndFragments,
      dropReferrer: settings.dropReferrer ?? defaults.dropReferrer,
      dropReportsFromExtensions:
        settings.dropReportsFromExtensions ?? defaults.dropReportsFromExtensions,
    },
  };
}

/** `POST /v1/workspaces/{workspaceId}/websites`: `201` with the website, or `403 website_limit_reached`. */
export const createWebsite: RouteHandler = async (request, [workspaceId], { store }) => {
  const access = authorize(request, store, workspaceId!);
  if (!access.ok) return access.response;
  const body = await readJson(request);
  if (!body.ok) return body.response;
  const input = parseBody(body.value);
  if (Array.isArray(input)) return validationProblem(input);
  const { workspace } = access;
  const origin = new URL(request.url).origin;
  const now = new Date().toISOString();
  const website = store.insertWebsite(workspace, (id, endpointId) => ({
    id,
    workspaceId: workspace.id,
    name: input.name,
    url: input.url,
    endpointUrl: `${origin}/reports/${endpointId}`,
    endpointEnabled: true,
    usageLimit: workspace.plan.reportsPerMonth,
    settings: input.settings,
    role: CREATOR_WEBSITE_ROLE,
    createdAt: now,
    updatedAt: now,
  }));
  if (!website) {
    const limit = workspace.plan.websiteLimit;
    return problem({
      status: 403,
      code: 'website_limit_reached',
      detail: `The ${workspace.plan.name} plan allows ${limit} website${limit === 1 ? '' : 's'}; delete one or upgrade the plan.`,
    });
  }
  return json(website, 201);
};
