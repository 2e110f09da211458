import { toFieldErrors } from '@cspwatch/contract';
import {
  createWebhookChannel,
  isWebhookSenderError,
  type WebhookChannel,
} from '@cspwatch/webhook-sender';
import type { ProblemFieldError } from '../http/problem';
import { type ParsedScenario, scenarioSchema } from './schema';

/** A scenario that passed every check, with its webhook channels validated by the sender. */
export interface CheckedScenario {
  scenario: ParsedScenario;
  channels: { channel: WebhookChannel; enabled: boolean }[];
}

function duplicates(
  errors: ProblemFieldError[],
  list: readonly { id?: string | undefined }[],
  name: string,
): Set<string> {
  const seen = new Set<string>();
  list.forEach((item, index) => {
    if (item.id === undefined) return;
    if (seen.has(item.id))
      errors.push({ path: `${name}.${index}.id`, message: 'Duplicate id; ids must be unique.' });
    seen.add(item.id);
  });
  return seen;
}

/** Checks that every reference (role, creator, workspace, website, channel) names something that exists. */
function checkReferences(scenario: ParsedScenario, errors: ProblemFieldError[]): void {
  const workspaces = duplicates(errors, scenario.workspaces, 'workspaces');
  const users = duplicates(errors, scenario.users, 'users');
  duplicates(errors, scenario.apiKeys, 'apiKeys');
  const websites = duplicates(errors, scenario.websites, 'websites');
  const channels = duplicates(errors, scenario.webhookChannels, 'webhookChannels');
  duplicates(errors, scenario.alertRules, 'alertRules');
  const missing = (path: string, kind: string, value: string) =>
    errors.push({ path, message: `No ${kind} with id ${JSON.stringify(value)} in the scenario.` });
  scenario.users.forEach((user, index) => {
    for (const workspaceId of Object.keys(user.roles))
      if (!workspaces.has(workspaceId))
        missing(`users.${index}.roles.${workspaceId}`, 'workspace', workspaceId);
  });
  scenario.apiKeys.forEach((key, index) => {
    if (!workspaces.has(key.workspaceId))
      missing(`apiKeys.${index}.workspaceId`, 'workspace', key.workspaceId);
    if (!users.has(key.createdBy)) missing(`apiKeys.${index}.createdBy`, 'user', key.createdBy);
  });
  scenario.websites.forEach((site, index) => {
    if (!workspaces.has(site.workspaceId))
      missing(`websites.${index}.workspaceId`, 'workspace', site.workspaceId);
  });
  scenario.alertRules.forEach((rule, index) => {
    if (!websites.has(rule.websiteId))
      missing(`alertRules.${index}.websiteId`, 'website', rule.websiteId);
    rule.channelIds.forEach((channelId, position) => {
      if (!channels.has(channelId))
        missing(`alertRules.${index}.channelIds.${position}`, 'webhook channel', channelId);
    });
  });
}

/**
 * Validates a scenario body: the shape (zod), the references between its parts, and each
 * webhook channel by the sender's own rules (https on a public host unless loopback is
 * allowed, secret of 8 characters or more). Every problem is listed, with its path.
 */
export function parseScenario(
  body: unknown,
  dangerouslyAllowLoopbackWebhooks: boolean,
): { ok: true; value: CheckedScenario } | { ok: false; errors: ProblemFieldError[] } {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    const message =
      'Send a JSON object with workspaces (required), users, apiKeys, websites, webhookChannels and alertRules.';
    return { ok: false, errors: [{ path: '(body)', message }] };
  }
  const parsed = scenarioSchema.safeParse(body);
  if (!parsed.success) return { ok: false, errors: toFieldErrors(parsed.error.issues) };
  const scenario = parsed.data;
  const errors: ProblemFieldError[] = [];
  checkReferences(scenario, errors);
  const channels: CheckedScenario['channels'] = [];
  scenario.webhookChannels.forEach((input, index) => {
    try {
      const { id, name, url, secret } = input;
      const channel = createWebhookChannel(
        { name, url, secret },
        { id, dangerouslyAllowLoopback: dangerouslyAllowLoopbackWebhooks },
      );
      channels.push({ channel, enabled: input.enabled });
    } catch (error) {
      if (!isWebhookSenderError(error)) throw error;
      for (const issue of error.issues)
        errors.push({ path: `webhookChannels.${index}.${issue.path}`, message: issue.message });
    }
  });
  return errors.length > 0 ? { ok: false, errors } : { ok: true, value: { scenario, channels } };
}
