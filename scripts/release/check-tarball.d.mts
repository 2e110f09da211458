/** Checks one packed tarball: what is missing or stray in it, as messages. */
export function checkTarball(tarPath: string): {
  manifest: { name: string; version: string } & Record<string, unknown>;
  files: string[];
  problems: string[];
};
