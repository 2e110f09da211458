/**
 * The one base of every public error class of the cspwatch packages.
 *
 * Each public class declares `static readonly kind: string = '@cspwatch/<package>.<ClassName>'`
 * (typed `string`, so subclasses can declare their own). An
 * instance carries a `Symbol.for(kind)` marker for its class and every ancestor with a kind,
 * and `instanceof` reads that marker. So `instanceof` and the packages' `isXError` guards agree,
 * also for an error thrown by a second installed copy of a package (or its other build: ESM,
 * CommonJS, Node, Web), and also for errors of earlier releases, which set the same markers.
 * {@link CspwatchIssuesError} adds the `issues` list of the classes that report bad input.
 */

import type { Issue } from './issues';

/** A class deriving from {@link CspwatchBaseError}, seen through its `kind`. */
interface KindedClass {
  readonly kind?: string;
}

/** Options of {@link CspwatchBaseError}'s constructor. */
export interface BaseErrorOptions {
  /** The underlying error, kept as the standard `cause`. */
  readonly cause?: unknown;
}

/**
 * Base class of every public cspwatch error: a stable snake_case `code` to `switch` on, the
 * standard `cause`, and an `instanceof` that works across copies (see the module comment).
 */
export abstract class CspwatchBaseError<Code extends string = string> extends Error {
  /** Why it failed: a stable snake_case identifier. */
  declare readonly code: Code;

  /**
   * @param code - why it failed
   * @param message - what happened and what to do (never a secret)
   * @param options - `cause`, kept only when given
   */
  constructor(code: Code, message: string, options?: BaseErrorOptions) {
    // Error itself keeps `cause` only when the options have one.
    super(message, options);
    this.code = code;
    // A class without a kind of its own reads its parent's: the same marker, set again.
    for (let type = new.target as KindedClass; type.kind; type = Object.getPrototypeOf(type)) {
      Object.defineProperty(this, Symbol.for(type.kind), { value: true });
    }
  }

  // biome-ignore-start lint/complexity/noThisInStatic: `this` is the class right of `instanceof`
  /**
   * `instanceof` by marker, so it holds across installed copies of a package; `this` is
   * whichever subclass stands right of `instanceof`.
   */
  static override [Symbol.hasInstance](value: unknown): boolean {
    return Object.hasOwn(this, 'kind')
      ? hasErrorKind(value, (this as KindedClass).kind as string)
      : super[Symbol.hasInstance](value);
  }
  // biome-ignore-end lint/complexity/noThisInStatic: `this` is the class right of `instanceof`
}

/** Whether `value` is an error of the class whose `kind` is given, from any copy of its package. */
export function hasErrorKind(value: unknown, kind: string): boolean {
  // A primitive has no such own marker, so only null and undefined need the `?.`.
  return (value as Record<symbol, unknown> | null | undefined)?.[Symbol.for(kind)] === true;
}

/** Options of {@link CspwatchIssuesError}'s constructor. */
export interface IssuesErrorOptions extends BaseErrorOptions {
  /** The problems found in the options or input; the message should list them too. */
  readonly issues?: readonly Issue[] | undefined;
}

/**
 * Base of the error classes that report bad options or input as a list of {@link Issue}s:
 * `issues` is a frozen copy of those given, empty when none were.
 */
export abstract class CspwatchIssuesError<
  Code extends string = string,
> extends CspwatchBaseError<Code> {
  /** Each problem found (`path`, `code`, `message`), in the order found; empty when none. */
  declare readonly issues: readonly Issue[];

  /**
   * @param code - why it failed
   * @param message - what happened and what to do (never a secret)
   * @param options - the `issues` found, and `cause`, kept only when given
   */
  constructor(code: Code, message: string, options?: IssuesErrorOptions) {
    super(code, message, options);
    this.issues = Object.freeze([...(options?.issues ?? [])]);
  }
}
