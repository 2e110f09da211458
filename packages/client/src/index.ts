/**
 * @cspwatch/client: Typed REST client for the cspwatch API: list API keys with cursor iteration, create websites.
 *
 * @packageDocumentation
 */

/** The version of this package, as published. */
export const VERSION = '0.0.0';
