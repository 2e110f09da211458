/**
 * @cspwatch/mock-server: A mock of the cspwatch service for integration tests: real HTTP server, webhook inbox, msw handlers and a CLI.
 *
 * @packageDocumentation
 */

/** The version of this package, as published. */
export const VERSION = '0.0.0';
