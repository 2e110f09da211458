import { startMockServer } from '@cspwatch/mock-server';

/** Where the script sends its requests, and how to clean up afterwards. */
export interface Connection {
  baseUrl: string;
  token: string;
  workspaceId: string;
  /** `true` when the bundled mock server was started because `CSPWATCH_BASE_URL` is unset. */
  usingMockServer: boolean;
  close(): Promise<void>;
}

/** Environment variables the script reads. */
export type ScriptEnv = Record<string, string | undefined>;

/**
 * Connects to `CSPWATCH_BASE_URL` with `CSPWATCH_TOKEN` and `CSPWATCH_WORKSPACE_ID`; when
 * `CSPWATCH_BASE_URL` is unset, starts the bundled mock server in-process and uses its
 * seeded admin token and main workspace instead.
 */
export async function connect(env: ScriptEnv, print: (line: string) => void): Promise<Connection> {
  const baseUrl = env.CSPWATCH_BASE_URL;
  if (baseUrl) {
    const missing = ['CSPWATCH_TOKEN', 'CSPWATCH_WORKSPACE_ID'].filter((name) => !env[name]);
    if (missing.length > 0) {
      throw new Error(`CSPWATCH_BASE_URL is set, so ${missing.join(' and ')} must be set too.`);
    }
    return {
      baseUrl,
      token: env.CSPWATCH_TOKEN!,
      workspaceId: env.CSPWATCH_WORKSPACE_ID!,
      usingMockServer: false,
      close: async () => {},
    };
  }
  const mock = await startMockServer();
  print(`CSPWATCH_BASE_URL is not set: started the bundled mock server at ${mock.url}`);
  print('(seeded demo data; nothing leaves this machine)');
  return {
    baseUrl: mock.url,
    token: mock.tokens.admin,
    workspaceId: mock.workspaceIds.main,
    usingMockServer: true,
    close: () => mock.close(),
  };
}
