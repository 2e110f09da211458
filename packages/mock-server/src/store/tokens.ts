/**
 * Bearer tokens issued at run time (over the control API or `MockStore`), and the tokens
 * that were expired or revoked: what lets a client's 401 → refresh → replay path run
 * against the mock.
 */

/** Why a known token no longer authenticates. */
export type EndedTokenStatus = 'expired' | 'revoked';

/** What an issued token stands for. */
export type IssuedToken =
  | { kind: 'user'; userId: string; expiresAtMs: number | null }
  | { kind: 'api_key'; workspaceId: string; keyId: string };

/** `length` random lowercase hex digits (Web Crypto: tokens must not be guessable from the seed). */
export function randomHex(length: number): string {
  const bytes = crypto.getRandomValues(new Uint8Array(Math.ceil(length / 2)));
  return [...bytes]
    .map((byte) => byte.toString(16).padStart(2, '0'))
    .join('')
    .slice(0, length);
}

/** Issued tokens and ended tokens; cleared on reset. */
export class TokenRegistry {
  readonly #issued = new Map<string, IssuedToken>();
  readonly #ended = new Map<string, EndedTokenStatus>();

  /** Issues a user access token, valid for `ttlSeconds` when given. */
  issueUser(userId: string, ttlSeconds?: number): { token: string; expiresAt: string | null } {
    const token = `mock_at_${randomHex(40)}`;
    const expiresAtMs = ttlSeconds === undefined ? null : Date.now() + ttlSeconds * 1000;
    this.#issued.set(token, { kind: 'user', userId, expiresAtMs });
    return { token, expiresAt: expiresAtMs === null ? null : new Date(expiresAtMs).toISOString() };
  }

  /** Issues a token for an API key: its prefix followed by random hex, like a real `cwk_` key. */
  issueApiKey(workspaceId: string, keyId: string, prefix: string): string {
    const token = `${prefix}${randomHex(34)}`;
    this.#issued.set(token, { kind: 'api_key', workspaceId, keyId });
    return token;
  }

  /** What an issued token stands for, or `'expired'` once its time is up. */
  lookup(token: string): IssuedToken | EndedTokenStatus | undefined {
    const ended = this.#ended.get(token);
    if (ended) return ended;
    const issued = this.#issued.get(token);
    if (issued?.kind === 'user' && issued.expiresAtMs !== null && Date.now() >= issued.expiresAtMs)
      return 'expired';
    return issued;
  }

  /** Marks a token expired or revoked from now on. */
  end(token: string, status: EndedTokenStatus): void {
    this.#ended.set(token, status);
  }

  /** Forgets every issued and ended token. */
  clear(): void {
    this.#issued.clear();
    this.#ended.clear();
  }
}
