import type { ProblemCode } from '@cspwatch/contract';

/*
 * Every `code` an error of the client can carry: the contract's problem codes, the codes the
 * client derives from a status, and the client's own.
 */

/**
 * The code of each status that has its own class, used when the body has none. A 3xx is
 * never followed and gets `redirect_not_followed`. Internal.
 */
export const STATUS_CODES = {
  400: 'bad_request',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not_found',
  409: 'conflict',
  422: 'unprocessable_content',
  429: 'rate_limited',
} as const satisfies Record<number, StatusDerivedCode>;

/** Codes the client derives from a status (or a redirect) when the body carries none. */
export type StatusDerivedCode =
  | 'bad_request'
  | 'unauthorized'
  | 'forbidden'
  | 'not_found'
  | 'conflict'
  | 'unprocessable_content'
  | 'rate_limited'
  | 'server_error'
  | 'redirect_not_followed';

/**
 * The codes of {@link CspwatchApiErrorCode} known by name: every code of the contract's list
 * of problem codes, and those the client derives from the status when a body has none.
 */
export type CspwatchKnownApiErrorCode = ProblemCode | StatusDerivedCode;

/**
 * Codes the cspwatch API sends in problem+json bodies. A body without `code` gets one from
 * the status (`not_found`, `http_418`, …). Open, so a new server code is still a string.
 */
export type CspwatchApiErrorCode = CspwatchKnownApiErrorCode | (string & {});

/** Codes the client assigns itself, for failures that did not come from an API error body. */
export type CspwatchClientErrorCode =
  | 'invalid_options'
  | 'invalid_input'
  | 'connection_failed'
  | 'timeout'
  | 'token_unavailable'
  | 'response_validation_failed'
  | 'repeated_cursor'
  | 'missing_cursor'
  | 'too_many_items'
  | 'redirect_not_followed';

/** Every `code` a `CspwatchError` can carry. */
export type CspwatchErrorCode = CspwatchClientErrorCode | CspwatchApiErrorCode;
