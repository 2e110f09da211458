import { type ApiKey, createCspwatchClient } from '@cspwatch/client';
import { connect, type ScriptEnv } from '@cspwatch/example-script-connection';

/** Options of {@link listApiKeys}. */
export interface ListApiKeysOptions {
  /** Environment: `CSPWATCH_BASE_URL`, `CSPWATCH_TOKEN`, `CSPWATCH_WORKSPACE_ID`. */
  env: ScriptEnv;
  /** Where output lines go. */
  print: (line: string) => void;
  /** Only keys whose name contains this text. */
  q?: string;
  /** Page size, 1 to 200. */
  limit?: number;
}

/** What {@link listApiKeys} found. */
export interface ListApiKeysResult {
  keys: ApiKey[];
  pages: number;
  total: number;
  usingMockServer: boolean;
}

const date = (value: string | null | undefined): string => value?.slice(0, 10) ?? '-';

/** Formats keys as a fixed-width table. */
export function formatKeyTable(keys: readonly ApiKey[]): string[] {
  const rows = [
    ['NAME', 'PREFIX', 'CREATED BY', 'LAST USED', 'EXPIRES'],
    ...keys.map((key) => [
      key.name,
      key.prefix,
      key.createdByUser.email,
      date(key.lastUsedAt),
      date(key.expiresAt),
    ]),
  ];
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
  return rows.map((row) =>
    row
      .map((cell, column) => cell.padEnd(widths[column]!))
      .join('  ')
      .trimEnd(),
  );
}

/**
 * Lists every API key of the workspace, page by page with the cursor the API returns, and
 * prints them as a table.
 */
export async function listApiKeys(options: ListApiKeysOptions): Promise<ListApiKeysResult> {
  const { env, print } = options;
  const connection = await connect(env, print);
  try {
    const client = createCspwatchClient({ baseUrl: connection.baseUrl, token: connection.token });
    const list = client.apiKeys.list(connection.workspaceId, {
      ...(options.q === undefined ? {} : { q: options.q }),
      ...(options.limit === undefined ? {} : { limit: options.limit }),
    });
    const keys: ApiKey[] = [];
    let pages = 0;
    let total = 0;
    for await (const page of list.pages()) {
      pages += 1;
      total = page.pagination.total;
      keys.push(...page.data);
    }
    for (const line of formatKeyTable(keys)) print(line);
    print(`${keys.length} of ${total} keys, fetched in ${pages} page${pages === 1 ? '' : 's'}.`);
    return { keys, pages, total, usingMockServer: connection.usingMockServer };
  } finally {
    await connection.close();
  }
}
