/**
 * Shared by every cspwatch package, bundled into each; never published.
 *
 * @packageDocumentation
 */
export {
  checkBoolean,
  checkFunction,
  checkInteger,
  checkNonEmptyString,
  checkObject,
  checkRequired,
  checkUnknownKeys,
  type IntegerBounds,
  integerRule,
  isOptionsObject,
  mustBe,
} from './checks';
export { describeValue } from './describe-value';
export {
  type BaseErrorOptions,
  CspwatchBaseError,
  CspwatchIssuesError,
  hasErrorKind,
  type IssuesErrorOptions,
} from './errors';
export { formatIssues, type Issue, type IssueCode, issue } from './issues';
export { requireOptionalPeer } from './optional-peer';
export { issuesFromZod, type ZodLikeIssue } from './zod-issues';
