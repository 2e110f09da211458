import { version } from '../package.json';

/** The version of this package, read from its package.json at build time (sent in the default `User-Agent`). */
export const VERSION: string = version;
