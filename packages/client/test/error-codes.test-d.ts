/**
 * The client's error codes are pinned to the one list the mock service sends (the contract's
 * `PROBLEM_CODES`): a code added to, renamed in or dropped from either side fails here.
 */
import type { ProblemCode } from '@cspwatch/contract';
import { describe, expectTypeOf, it } from 'vitest';
import type { CspwatchKnownApiErrorCode } from '../src/index';

/** Codes the client makes up from a status (or a redirect) when the body carries none. */
type StatusDerivedCode =
  | 'unauthorized'
  | 'forbidden'
  | 'conflict'
  | 'unprocessable_content'
  | 'redirect_not_followed';

/**
 * Codes of mock-only routes the client never calls: the control API, the report endpoint,
 * the webhook inbox and the alert emulation.
 */
type MockOnlyCode =
  | 'channel_not_found'
  | 'endpoint_not_found'
  | 'method_not_allowed'
  | 'webhook_verification_failed'
  | 'missing_control_token'
  | 'invalid_control_token'
  | 'user_not_found'
  | 'api_key_not_found'
  | 'token_not_found'
  | 'website_not_found'
  | 'rule_not_found'
  | 'webhook_channel_not_found';

describe('client error codes and the mock service', () => {
  it('every server code the client names is one the mock sends', () => {
    expectTypeOf<Exclude<CspwatchKnownApiErrorCode, StatusDerivedCode>>().toExtend<ProblemCode>();
  });

  it('every code the mock sends on API routes is known to the client by name', () => {
    expectTypeOf<Exclude<ProblemCode, MockOnlyCode>>().toExtend<CspwatchKnownApiErrorCode>();
  });

  it('the status-derived and mock-only lists name real codes only', () => {
    expectTypeOf<MockOnlyCode>().toExtend<ProblemCode>();
    expectTypeOf<Extract<StatusDerivedCode, ProblemCode>>().toEqualTypeOf<never>();
  });
});
