/**
 * Responses whose body is a string the service already holds. The node adapter writes that
 * string to the socket directly instead of reading the `Response` body stream back (the
 * stream read cost about a tenth of the list endpoint's time under load). The `Response`
 * itself is complete, so msw and any other transport read it as usual.
 */
const TEXT = new WeakMap<Response, string>();

/** A `Response` with a string body, remembered for {@link unreadText}. */
export function textResponse(text: string, init: ResponseInit): Response {
  const response = new Response(text, init);
  TEXT.set(response, text);
  return response;
}

/** The body of a {@link textResponse} nobody has read yet; `undefined` for any other. */
export function unreadText(response: Response): string | undefined {
  return response.bodyUsed ? undefined : TEXT.get(response);
}
