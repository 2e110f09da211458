import type { ApiKey, CspwatchClient } from '@cspwatch/client';
import { formatTable, type Output } from '../output';

/** What the API-key step saw. */
export interface ApiKeysStepResult {
  /** Keys received across all pages. */
  listed: number;
  /** `pagination.total` as the server reported it. */
  total: number;
  /** Pages fetched, one request each. */
  pages: number;
}

const PAGE_SIZE = 20;
const SHOWN = 5;

/** Iterates every API key of the workspace page by page, following `nextCursor`. */
export async function listApiKeysStep(
  client: CspwatchClient,
  workspaceId: string,
  out: Output,
): Promise<ApiKeysStepResult> {
  out.step(`List API keys with cursor iteration (client.apiKeys.list, limit ${PAGE_SIZE})`);
  const keys: ApiKey[] = [];
  let pages = 0;
  let total = 0;
  for await (const page of client.apiKeys.list(workspaceId, { limit: PAGE_SIZE }).pages()) {
    pages += 1;
    total = page.pagination.total;
    keys.push(...page.data);
  }
  const rows = [
    ['NAME', 'PREFIX', 'CREATED BY', 'LAST USED'],
    ...keys
      .slice(0, SHOWN)
      .map((key) => [
        key.name,
        key.prefix,
        key.createdByUser.email,
        key.lastUsedAt?.slice(0, 10) ?? '-',
      ]),
  ];
  const [header, ...body] = formatTable(rows);
  out.line(out.style('dim', header ?? ''));
  for (const row of body) out.line(row);
  if (keys.length > SHOWN) out.line(out.style('dim', `… and ${keys.length - SHOWN} more`));
  out.ok(`${keys.length} keys (total ${total}) fetched in ${pages} pages`);
  return { listed: keys.length, total, pages };
}
