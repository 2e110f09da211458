// How every browser test and the runtime matrix start Debian's chromium (headless, as root,
// on a machine with no network): one home for the path and the flags.
import { existsSync } from 'node:fs';

/** Debian's chromium; CI installs it from apt when missing (`.ci/run`). */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * Headless, no sandbox (CI runs as root), and none of the background connections a closed
 * network refuses by the dozen at every start.
 */
export const CHROMIUM_ARGS = Object.freeze([
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
]);

/** Whether the browser is installed, for a test that must say why it skips. */
export const hasChromium = () => existsSync(CHROMIUM_PATH);

/** playwright-core launch options for that browser. */
export const chromiumLaunchOptions = (extra = {}) => ({
  executablePath: CHROMIUM_PATH,
  args: [...CHROMIUM_ARGS],
  ...extra,
});
