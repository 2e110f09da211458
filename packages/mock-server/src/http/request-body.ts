import { isWebhookVerificationError } from '@cspwatch/webhooks';
import { readRawBody } from '@cspwatch/webhooks/fetch';
import { problem } from './problem';

/** Largest request body accepted, in bytes (1 MB). */
export const MAX_BODY_BYTES = 1_048_576;

/** The raw body, or the `413` to answer instead. */
export type BodyResult = { ok: true; bytes: Uint8Array } | { ok: false; response: Response };

const tooLarge = (): BodyResult => ({
  ok: false,
  response: problem({
    status: 413,
    code: 'payload_too_large',
    detail: `The request body exceeds ${MAX_BODY_BYTES} bytes; send at most 1 MB.`,
  }),
});

/**
 * Reads the body as bytes, stopping as soon as it grows past {@link MAX_BODY_BYTES}: the
 * verifier's own capped reader, so the two cannot differ on what "too large" means.
 */
export async function readBody(request: Request): Promise<BodyResult> {
  const declared = Number(request.headers.get('content-length') ?? '0');
  if (declared > MAX_BODY_BYTES) return tooLarge();
  if (!request.body) return { ok: true, bytes: new Uint8Array() };
  try {
    return { ok: true, bytes: await readRawBody(request.body, { maxBodyBytes: MAX_BODY_BYTES }) };
  } catch (error) {
    if (!isWebhookVerificationError(error)) throw error;
    if (error.code === 'body_too_large') return tooLarge();
    // A stream that broke mid-read: the same error as reading it directly would give.
    throw error.cause ?? error;
  }
}

/** Whether a content type is JSON: `application/json` or any `application/*+json`, parameters allowed. */
export function isJsonContentType(value: string | null): boolean {
  const essence = value?.split(';')[0]?.trim().toLowerCase() ?? '';
  return essence === 'application/json' || /^application\/[a-z0-9.+-]+\+json$/.test(essence);
}

/** The parsed JSON body, or the problem (415, 413, 400) to answer instead. */
export type JsonResult = { ok: true; value: unknown } | { ok: false; response: Response };

/** Options of {@link readJson}. */
export interface ReadJsonOptions {
  /** Which content types are JSON here. @default isJsonContentType */
  acceptContentType?: (value: string | null) => boolean;
}

/** Checks the content type, reads at most 1 MB and parses strict UTF-8 JSON. */
export async function readJson(
  request: Request,
  options: ReadJsonOptions = {},
): Promise<JsonResult> {
  const accept = options.acceptContentType ?? isJsonContentType;
  if (!accept(request.headers.get('content-type'))) {
    return {
      ok: false,
      response: problem({
        status: 415,
        code: 'unsupported_media_type',
        detail: 'Send the body as JSON with the header content-type: application/json.',
      }),
    };
  }
  const body = await readBody(request);
  if (!body.ok) return body;
  try {
    const text = new TextDecoder('utf-8', { fatal: true }).decode(body.bytes);
    return { ok: true, value: JSON.parse(text) };
  } catch (error) {
    const reason = error instanceof SyntaxError ? error.message : 'the body is not valid UTF-8';
    return {
      ok: false,
      response: problem({
        status: 400,
        code: 'malformed_json',
        detail: `The body is not valid JSON: ${reason}.`,
      }),
    };
  }
}
