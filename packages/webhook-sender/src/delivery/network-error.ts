/**
 * A network error in one line that names its cause: `fetch failed` and its kin are unwrapped
 * down to the system error (`connection refused (ECONNREFUSED 127.0.0.1:1)`).
 */

/** The fields Node and undici put on a system or socket error. */
interface SystemErrorFields {
  readonly code?: unknown;
  readonly address?: unknown;
  readonly port?: unknown;
  readonly hostname?: unknown;
  readonly message?: unknown;
  readonly cause?: unknown;
}

/** What each well-known code means, in the words a developer searches for. */
const MEANINGS: Readonly<Record<string, string>> = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset by the receiver',
  ENOTFOUND: 'host not found',
  EAI_AGAIN: 'host name lookup failed (temporary)',
  ETIMEDOUT: 'connection timed out',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  EPIPE: 'connection closed by the receiver while sending',
  UND_ERR_SOCKET: 'connection closed by the receiver',
  EPROTO: 'TLS handshake failed (is it an http: server?)',
  ERR_SSL_WRONG_VERSION_NUMBER: 'TLS handshake failed (is it an http: server?)',
  DEPTH_ZERO_SELF_SIGNED_CERT: 'TLS certificate is self-signed',
  SELF_SIGNED_CERT_IN_CHAIN: 'TLS certificate chain is self-signed',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'TLS certificate could not be verified',
  CERT_HAS_EXPIRED: 'TLS certificate has expired',
  ERR_TLS_CERT_ALTNAME_INVALID: 'TLS certificate does not name this host',
};

/** The innermost error in the `cause` chain that carries a string `code`. */
function innermostCoded(error: unknown): SystemErrorFields | undefined {
  let found: SystemErrorFields | undefined;
  for (let current = error, depth = 0; current && depth < 8; depth++) {
    const fields = current as SystemErrorFields;
    if (typeof fields.code === 'string') found = fields;
    current = fields.cause;
  }
  return found;
}

/** Where the failed call went: `127.0.0.1:1`, `[::1]:8080`, a host name, or nothing. */
function whereOf(fields: SystemErrorFields): string {
  const { address, port, hostname } = fields;
  if (typeof address === 'string') {
    const host = address.includes(':') ? `[${address}]` : address;
    return typeof port === 'number' ? `${host}:${port}` : host;
  }
  return typeof hostname === 'string' ? hostname : '';
}

/**
 * One line for a network error: its meaning, then the code and where it happened, e.g.
 * `connection refused (ECONNREFUSED 127.0.0.1:1)`; an uncoded error gives its message.
 */
export function describeNetworkError(error: unknown): string {
  const coded = innermostCoded(error);
  if (coded === undefined) return error instanceof Error ? error.message : String(error);
  const code = coded.code as string;
  const where = whereOf(coded);
  const detail = `${code}${where ? ` ${where}` : ''}`;
  const meaning = MEANINGS[code];
  if (meaning !== undefined) return `${meaning} (${detail})`;
  const message = typeof coded.message === 'string' ? coded.message : '';
  return message && !message.includes(code) ? `${message} (${detail})` : message || detail;
}
