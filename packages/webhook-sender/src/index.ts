/**
 * @cspwatch/webhook-sender: Reference sender of cspwatch webhook deliveries: target policy, signing, delivery, auto-disable after five failures.
 *
 * @packageDocumentation
 */

/** The version of this package, as published. */
export const VERSION = '0.0.0';
