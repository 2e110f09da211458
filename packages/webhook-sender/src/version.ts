/** The version of this package, as published (sent in the default `User-Agent`). */
export const VERSION = '0.0.0';
