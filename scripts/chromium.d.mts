/** Debian's chromium; CI installs it from apt when missing (`.ci/run`). */
export declare const CHROMIUM_PATH: string;
/** Headless, no sandbox, no background networking. */
export declare const CHROMIUM_ARGS: readonly string[];
/** Whether the browser is installed. */
export declare function hasChromium(): boolean;
/** playwright-core launch options for that browser. */
export declare function chromiumLaunchOptions<T extends object = object>(
  extra?: T,
): { executablePath: string; args: string[] } & T;
