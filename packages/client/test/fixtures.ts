import { HttpResponse, http } from 'msw';

/** Base URL the msw unit tests intercept. */
export const BASE_URL = 'https://api.cspwatch.test';
/** A token that must never show up in errors or logs. */
export const SECRET_TOKEN = 'tok_SuperSecret_0123456789';

/** A realistic API key as the API returns it. */
export function makeApiKey(index: number, overrides: Record<string, unknown> = {}) {
  return {
    id: `key_${index}`,
    workspaceId: 'ws_1',
    name: `Key ${index}`,
    prefix: `cwk_${index.toString(16).padStart(6, '0')}`,
    createdBy: 'usr_1',
    createdByUser: {
      id: 'usr_1',
      email: 'ada@example.com',
      firstName: 'Ada',
      lastName: 'Lovelace',
      picture: 'https://avatars.example.com/usr_1.png',
    },
    allowedIps: [],
    expiresAt: null,
    lastUsedAt: '2025-05-01T10:00:00.000Z',
    createdAt: '2025-01-01T10:00:00.000Z',
    updatedAt: '2025-01-02T10:00:00.000Z',
    ...overrides,
  };
}

/** A realistic website as the API returns it. */
export function makeWebsite(overrides: Record<string, unknown> = {}) {
  return {
    id: 'web_1',
    workspaceId: 'ws_1',
    name: 'Shop',
    url: 'https://shop.example.com',
    endpointUrl: 'https://ingest.cspwatch.test/r/web_1',
    endpointEnabled: true,
    usageLimit: 100000,
    settings: {
      allowedOrigins: [],
      dropQueryAndFragments: true,
      dropReferrer: false,
      dropReportsFromExtensions: true,
    },
    role: 'viewer',
    createdAt: '2025-01-01T10:00:00.000Z',
    updatedAt: '2025-01-01T10:00:00.000Z',
    ...overrides,
  };
}

/** A problem+json response like the service's. */
export function problemResponse(
  status: number,
  code: string,
  init: { headers?: Record<string, string>; detail?: string } = {},
) {
  return HttpResponse.json(
    {
      type: `urn:cspwatch:problem:${code}`,
      title: `Title of ${code}`,
      status,
      detail: init.detail ?? `Detail of ${code}`,
      code,
    },
    {
      status,
      headers: {
        'content-type': 'application/problem+json',
        'x-request-id': `req_${status}`,
        ...init.headers,
      },
    },
  );
}

/** The request URLs an msw handler saw. */
export interface SeenRequests {
  urls: URL[];
  requests: Request[];
}

/**
 * msw handler serving `total` keys in pages; the cursor is an opaque string that encodes
 * the offset with characters that need URL encoding (`+`, `/`, `=`, space).
 */
export function pagedKeysHandler(total: number, seen: SeenRequests, workspaceId = 'ws_1') {
  return http.get(`${BASE_URL}/v1/workspaces/${workspaceId}/api-keys`, ({ request }) => {
    const url = new URL(request.url);
    seen.urls.push(url);
    seen.requests.push(request);
    const limit = Number(url.searchParams.get('limit') ?? 50);
    const cursor = url.searchParams.get('cursor');
    const offset = cursor === null ? 0 : decodeCursor(cursor);
    const end = Math.min(total, offset + limit);
    const data = [];
    for (let index = offset; index < end; index++) data.push(makeApiKey(index));
    const hasMore = end < total;
    return HttpResponse.json({
      data,
      pagination: { nextCursor: hasMore ? encodeCursor(end) : null, hasMore, total },
    });
  });
}

/** An opaque-looking cursor with characters that must be URL-encoded. */
export function encodeCursor(offset: number): string {
  return `c+/ ${offset}==`;
}

function decodeCursor(cursor: string): number {
  const match = /^c\+\/ (\d+)==$/.exec(cursor);
  if (!match) throw new Error(`cursor arrived altered: ${JSON.stringify(cursor)}`);
  return Number(match[1]);
}
