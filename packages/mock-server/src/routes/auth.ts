import { problem } from '../http/problem';
import type { MockUser, MockWorkspace } from '../store/resources';
import type { InMemoryStore } from '../store/store';

/** The admin caller and workspace of a user-only, admin-only endpoint, or the problem to answer. */
export type AccessResult =
  | { ok: true; user: MockUser; workspace: MockWorkspace }
  | { ok: false; response: Response };

const deny = (
  status: number,
  code: Parameters<typeof problem>[0]['code'],
  detail: string,
  headers?: Record<string, string>,
): AccessResult => ({
  ok: false,
  response: problem({ status, code, detail, ...(headers ? { headers } : {}) }),
});

/**
 * Applies the access rules in order: a bearer token (401), a known workspace (404), a user
 * rather than an API key (403 `api_key_not_allowed`), the admin role (403 `forbidden_role`),
 * then the plan feature if one is required (403 `feature_not_in_plan`).
 */
export function authorize(
  request: Request,
  store: InMemoryStore,
  workspaceId: string,
  feature?: string,
): AccessResult {
  const header = request.headers.get('authorization');
  const match = header === null ? null : /^Bearer +(\S+) *$/i.exec(header);
  if (!match) {
    return deny(401, 'missing_token', 'Send an Authorization: Bearer <token> header.', {
      'www-authenticate': 'Bearer realm="cspwatch"',
    });
  }
  const principal = store.principal(match[1]!);
  if (principal?.kind === 'ended') {
    return deny(
      401,
      'invalid_token',
      `The bearer token was ${principal.status === 'expired' ? 'expired' : 'revoked'}; get a fresh token and retry.`,
      {
        'www-authenticate': `Bearer realm="cspwatch", error="invalid_token", error_description="The access token ${principal.status === 'expired' ? 'expired' : 'was revoked'}"`,
      },
    );
  }
  if (!principal) {
    return deny(
      401,
      'invalid_token',
      'The bearer token is not valid; sign in again for a fresh token.',
      {
        'www-authenticate': 'Bearer realm="cspwatch", error="invalid_token"',
      },
    );
  }
  const workspace = store.workspace(workspaceId);
  if (!workspace)
    return deny(404, 'workspace_not_found', `No workspace with id ${JSON.stringify(workspaceId)}.`);
  if (principal.kind === 'api_key') {
    return deny(
      403,
      'api_key_not_allowed',
      'This endpoint needs a user access token; API keys (cwk_...) are not accepted.',
    );
  }
  if (principal.user.roles[workspace.id] !== 'admin') {
    return deny(403, 'forbidden_role', 'This endpoint needs the admin role on the workspace.');
  }
  if (feature !== undefined && !workspace.plan.features.includes(feature)) {
    return deny(
      403,
      'feature_not_in_plan',
      `The workspace plan (${workspace.plan.name}) does not include the ${feature} feature.`,
    );
  }
  return { ok: true, user: principal.user, workspace };
}
