import { checkFunction, type Issue } from '@cspwatch/internal';
import { invalidOptions, type WebhookVerificationError } from '../errors';

/** Validates the optional `onRejected` option at construction. */
export function checkRejectedHook<THook>(hook: THook | undefined): THook | undefined {
  const issues: Issue[] = [];
  checkFunction(issues, 'onRejected', hook);
  if (issues.length > 0) throw invalidOptions(...issues);
  return hook;
}

/** Runs the `onRejected` hook; whatever it does, the refusal is still sent. */
export function callRejectedHook<TRequest>(
  hook: (error: WebhookVerificationError, req: TRequest) => void,
  error: WebhookVerificationError,
  req: TRequest,
): void {
  try {
    const result: unknown = hook(error, req);
    if (typeof (result as PromiseLike<unknown> | undefined)?.then === 'function') {
      (result as PromiseLike<unknown>).then(undefined, reportHookError);
    }
  } catch (hookError) {
    reportHookError(hookError);
  }
}

function reportHookError(hookError: unknown): void {
  // Not silent, and not fatal: a logging hook must not turn a refusal into a crash or a 500.
  // Edge runtimes have no process.emitWarning; the console is what they log.
  const node = (
    globalThis as { process?: { emitWarning?: (w: Error | string, t: string) => void } }
  ).process;
  if (typeof node?.emitWarning === 'function') {
    node.emitWarning(
      hookError instanceof Error ? hookError : String(hookError),
      'CspwatchWebhookWarning',
    );
  } else console.warn('CspwatchWebhookWarning: the onRejected hook failed', hookError);
}
