/** Control API: issue, expire and revoke bearer tokens. */
import { isMockServerError } from '../errors';
import { json, problem } from '../http/problem';
import type { RouteHandler } from '../routes/context';
import { readValid } from './body';
import { EndTokenRequestSchema, IssueTokenRequestSchema } from './request-schemas';

/** `POST /_mock/tokens`: `{ userId, ttlSeconds? }` issues a user token; `{ apiKeyId }` a `cwk_` token. */
export const issueToken: RouteHandler = async (request, _params, { store }) => {
  const body = await readValid(request, IssueTokenRequestSchema);
  if (!body.ok) return body.response;
  try {
    if ('apiKeyId' in body.value) {
      const token = store.issueApiKeyToken(body.value.apiKeyId);
      return json({ token, kind: 'api_key', apiKeyId: body.value.apiKeyId, expiresAt: null }, 201);
    }
    const { userId, ttlSeconds } = body.value;
    const issued = store.issueUserToken(userId, ttlSeconds);
    return json({ ...issued, kind: 'user', userId }, 201);
  } catch (error) {
    if (!isMockServerError(error)) throw error;
    const user = error.code === 'unknown_user';
    return problem({
      status: 404,
      code: user ? 'user_not_found' : 'api_key_not_found',
      detail: `${error.message} List them with GET /_mock/state.`,
    });
  }
};

/** `POST /_mock/tokens/expire` and `/revoke`: the token gets `401 invalid_token` from now on. */
export function endToken(status: 'expired' | 'revoked'): RouteHandler {
  return async (request, _params, { store }) => {
    const body = await readValid(request, EndTokenRequestSchema);
    if (!body.ok) return body.response;
    if (!store.endToken(body.value.token, status)) {
      return problem({
        status: 404,
        code: 'token_not_found',
        detail:
          'No token that authenticates matches; it may be unknown, already ended, or its key deleted.',
      });
    }
    return new Response(null, { status: 204 });
  };
}
