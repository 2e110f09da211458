/**
 * Responses whose body is a string the service already holds. The node adapter writes that
 * string (or its UTF-8 bytes, when the service keeps those too) to the socket directly
 * instead of reading the `Response` body stream back (bench/RESULTS.md, "Speed tricks kept").
 * The `Response` itself is complete, so msw and any other transport read it as usual.
 */
const BODIES = new WeakMap<Response, string | Uint8Array>();

/** A `Response` with a string body, remembered for {@link unreadBody}; `utf8` is that string's bytes if already encoded. */
export function textResponse(text: string, init: ResponseInit, utf8?: Uint8Array): Response {
  const response = new Response(text, init);
  BODIES.set(response, utf8 ?? text);
  return response;
}

/** The body of a {@link textResponse} nobody has read yet; `undefined` for any other. */
export function unreadBody(response: Response): string | Uint8Array | undefined {
  return response.bodyUsed ? undefined : BODIES.get(response);
}
