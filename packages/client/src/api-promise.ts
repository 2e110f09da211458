/*
 * The promise a call returns: awaited, it gives the value; `.withResponse()` gives the value
 * with the response facts (status, headers, request id, attempts), as openai-node does.
 */

/** The facts of the response that gave a value. */
export interface CspwatchResponseInfo {
  /** HTTP status. */
  status: number;
  /** Response headers, the token redacted (`location` also without userinfo and query values). */
  headers: Headers;
  /** The `x-request-id` response header, when present. */
  requestId: string | undefined;
  /** Attempts made, 1 when the first one succeeded. */
  attempts: number;
}

/** A value with the facts of the response that carried it, from `.withResponse()`. */
export interface CspwatchWithResponse<T> {
  /** The parsed value, as the call without `.withResponse()` returns it. */
  data: T;
  /** Status, headers, request id and attempts of the response. */
  response: CspwatchResponseInfo;
}

/**
 * The result of a call: a promise of the value, plus `.withResponse()`.
 *
 * @example
 * ```ts
 * const { data: website, response } = await client.websites.create(id, input).withResponse();
 * console.log(website.id, response.requestId, response.attempts);
 * ```
 */
export interface CspwatchPromise<T> extends Promise<T> {
  /** The value together with the facts of the response that carried it. */
  withResponse(): Promise<CspwatchWithResponse<T>>;
}

/** Wraps a running call. The value promise is derived only when asked for. Internal. */
export function toCspwatchPromise<T>(call: Promise<CspwatchWithResponse<T>>): CspwatchPromise<T> {
  let value: Promise<T> | undefined;
  const dataPromise = () => {
    value ??= call.then((result) => result.data);
    return value;
  };
  return {
    // biome-ignore lint/suspicious/noThenProperty: this object is a promise of the value.
    then: (onValue, onError) => dataPromise().then(onValue, onError),
    catch: (onError) => dataPromise().catch(onError),
    finally: (onFinally) => dataPromise().finally(onFinally),
    withResponse: () => call,
    [Symbol.toStringTag]: 'Promise',
  };
}
