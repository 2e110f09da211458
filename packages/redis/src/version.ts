import { version } from '../package.json';

/** The version of this package, read from its package.json at build time (the tracer's version). */
export const VERSION: string = version;
