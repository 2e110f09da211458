/**
 * The guard of the control API (`/_mock/…`). Without a control token (the default on a
 * loopback address) every request passes; with one, each request must carry it as
 * `Authorization: Bearer <token>`, or as `?token=` (for the inbox page in a browser, whose
 * refreshes cannot set headers). A wrong or missing token gets `401` problem+json.
 */
import { problem } from '../http/problem';

const encoder = new TextEncoder();

/** Compares two strings in time that depends on their digests only, not on where they differ. */
async function sameSecret(given: string, expected: string): Promise<boolean> {
  const [a, b] = await Promise.all(
    [given, expected].map(
      async (text) => new Uint8Array(await crypto.subtle.digest('SHA-256', encoder.encode(text))),
    ),
  );
  let difference = 0;
  for (let index = 0; index < a!.length; index++) difference |= a![index]! ^ b![index]!;
  return difference === 0;
}

/** The token a control request carries, from the header or the query. */
export function presentedControlToken(request: Request): string | undefined {
  const header = request.headers.get('authorization');
  const bearer = header === null ? null : /^Bearer +(\S+) *$/i.exec(header);
  if (bearer) return bearer[1];
  return new URL(request.url).searchParams.get('token') ?? undefined;
}

/** Returns the `401` to answer, or `undefined` when the request may use the control API. */
export async function checkControlAccess(
  request: Request,
  controlToken: string | undefined,
): Promise<Response | undefined> {
  if (controlToken === undefined) return undefined;
  const given = presentedControlToken(request);
  if (given !== undefined && (await sameSecret(given, controlToken))) return undefined;
  return problem({
    status: 401,
    code: given === undefined ? 'missing_control_token' : 'invalid_control_token',
    detail:
      'The control API needs the control token printed when the mock started: send Authorization: Bearer <control token>.',
    headers: { 'www-authenticate': 'Bearer realm="cspwatch-mock-control"' },
  });
}
