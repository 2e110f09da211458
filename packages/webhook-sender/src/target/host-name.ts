/**
 * The name rules of the target policy (docs/webhook-sender-reference.md): strip one trailing dot, compare by labels
 * case-insensitively, reject names longer than DNS allows, empty labels, `localhost`, `*.localhost`, `*.local`, `*.internal`
 * and single-label names. Input is a hostname as the WHATWG URL parser gives it.
 */

/** Why a host name is refused. */
export type HostNameRejection =
  | 'name_too_long'
  | 'empty_label'
  | 'localhost_name'
  | 'local_name'
  | 'internal_name'
  | 'single_label_name';

/** The verdict on a host name: acceptable (and whether it is a `localhost` name), or refused. */
export type HostNameVerdict =
  | { readonly allowed: true; readonly name: string; readonly localhost: boolean }
  | { readonly allowed: false; readonly reason: HostNameRejection; readonly message: string };

/** The longest name DNS can carry, without the trailing dot (RFC 1035), and its longest label. */
const MAX_NAME_LENGTH = 253;
const MAX_LABEL_LENGTH = 63;

const refuse = (reason: HostNameRejection, message: string): HostNameVerdict => ({
  allowed: false,
  reason,
  message,
});

/**
 * Judges a host name. `localhost` and `*.localhost` come back allowed with `localhost: true`
 * only when `allowLocalhost` is set (the loopback opt-in); the caller then insists that every
 * address is loopback.
 */
export function judgeHostName(hostname: string, allowLocalhost: boolean): HostNameVerdict {
  const name = (hostname.endsWith('.') ? hostname.slice(0, -1) : hostname).toLowerCase();
  // Checked first, and the name not echoed: the other messages quote the host.
  if (name.length > MAX_NAME_LENGTH) {
    const message = `host name has ${name.length} characters; DNS allows at most ${MAX_NAME_LENGTH}`;
    return refuse('name_too_long', message);
  }
  const labels = name.split('.');
  const wide = labels.find((label) => label.length > MAX_LABEL_LENGTH);
  if (wide !== undefined) {
    const message = `host name has a label of ${wide.length} characters; DNS allows at most ${MAX_LABEL_LENGTH}`;
    return refuse('name_too_long', message);
  }
  if (labels.some((label) => label === '')) {
    return refuse('empty_label', `host "${hostname}" has an empty label`);
  }
  const last = labels[labels.length - 1];
  if (last === 'localhost') {
    if (allowLocalhost) return { allowed: true, name, localhost: true };
    return refuse('localhost_name', `host "${hostname}" is localhost, which is not public`);
  }
  if (last === 'local') {
    return refuse('local_name', `host "${hostname}" ends in .local (multicast DNS), not public`);
  }
  if (last === 'internal') {
    return refuse('internal_name', `host "${hostname}" ends in .internal, not public`);
  }
  if (labels.length < 2) {
    return refuse('single_label_name', `host "${hostname}" has no dot; use a public DNS name`);
  }
  return { allowed: true, name, localhost: false };
}
