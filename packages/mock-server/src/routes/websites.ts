import { codePointLength } from '@cspwatch/contract';
import { authorize } from '../auth';
import { json, type ProblemFieldError, problem, validationProblem } from '../problem';
import { readJson } from '../request-body';
import type { MockWebsiteSettings } from '../resources';
import { CREATOR_WEBSITE_ROLE, DEFAULT_WEBSITE_SETTINGS } from '../website-defaults';
import type { RouteHandler } from './context';

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** An absolute `http:` or `https:` URI (RFC 3986 characters only) that the WHATWG parser accepts too. */
function isHttpUri(value: string): boolean {
  return (
    /^https?:\/\/[A-Za-z0-9\-._~:/?#[\]@!$&'()*+,;=%]+$/i.test(value) &&
    URL.canParse(value) &&
    /^https?:$/.test(new URL(value).protocol)
  );
}

function isOrigin(value: unknown): boolean {
  return typeof value === 'string' && URL.canParse(value) && new URL(value).origin === value;
}

/** Validates the settings object, collecting errors; unknown fields are refused, not ignored. */
function parseSettings(value: unknown, errors: ProblemFieldError[]): MockWebsiteSettings {
  const settings = { ...DEFAULT_WEBSITE_SETTINGS, allowedOrigins: [] as string[] };
  if (value === undefined) return settings;
  if (!isObject(value)) {
    errors.push({ path: 'settings', message: 'Must be an object.' });
    return settings;
  }
  for (const [field, given] of Object.entries(value)) {
    const path = `settings.${field}`;
    if (field === 'allowedOrigins') {
      if (!Array.isArray(given)) errors.push({ path, message: 'Must be an array of origins.' });
      else {
        given.forEach((origin, index) => {
          if (!isOrigin(origin))
            errors.push({
              path: `${path}.${index}`,
              message: 'Must be an origin such as https://example.com.',
            });
        });
        settings.allowedOrigins = given as string[];
      }
    } else if (
      field === 'dropQueryAndFragments' ||
      field === 'dropReferrer' ||
      field === 'dropReportsFromExtensions'
    ) {
      if (typeof given !== 'boolean') errors.push({ path, message: 'Must be a boolean.' });
      else settings[field] = given;
    } else {
      errors.push({ path, message: 'Unknown setting.' });
    }
  }
  return settings;
}

/** Validates the create-website body, collecting every invalid field. */
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
  const errors: ProblemFieldError[] = [];
  const { name, url, settings, ...unknown } = body;
  if (typeof name !== 'string')
    errors.push({ path: 'name', message: 'Required: a string of 1 to 255 characters.' });
  else if (codePointLength(name) < 1 || codePointLength(name) > 255)
    errors.push({ path: 'name', message: 'Must be 1 to 255 characters long.' });
  if (typeof url !== 'string')
    errors.push({ path: 'url', message: 'Required: an absolute URI of at most 2048 characters.' });
  else if (url.length > 2048)
    errors.push({ path: 'url', message: 'Must be at most 2048 characters long.' });
  else if (!isHttpUri(url))
    errors.push({
      path: 'url',
      message: 'Must be an absolute http: or https: URL such as https://example.com.',
    });
  const parsedSettings = parseSettings(settings, errors);
  for (const field of Object.keys(unknown)) errors.push({ path: field, message: 'Unknown field.' });
  return errors.length > 0
    ? errors
    : { name: name as string, url: url as string, settings: parsedSettings };
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
