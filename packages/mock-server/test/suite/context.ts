import { expect } from 'vitest';
import type { MockApiKey, ProblemDetails } from '../../src/index';
import type { Harness } from '../transports';

/** One page of the key listing. */
export type Page = {
  data: MockApiKey[];
  pagination: { nextCursor: string | null; hasMore: boolean; total: number };
};

/** What every part of the behavioural suite uses: the harness and request helpers. */
export interface SuiteContext {
  readonly harness: Harness;
  tokens(): Harness['service']['tokens'];
  main(): string;
  keysUrl(query?: string, workspace?: string): string;
  sitesUrl(workspace?: string): string;
  auth(token?: string): { authorization: string };
  list(query?: string, token?: string): Promise<Response>;
  create(body: unknown, token?: string, workspace?: string): Promise<Response>;
  expectProblem(response: Response, status: number, code: string): Promise<ProblemDetails>;
  walk(query: string, limit: number): Promise<MockApiKey[]>;
  /** Calls the control API (`/_mock` + path) with a JSON body, as any language would. */
  control(method: string, path: string, body?: unknown): Promise<Response>;
  /** Creates a website over REST and returns it. */
  website(name?: string): Promise<{ id: string; name: string; url: string; endpointUrl: string }>;
}

/** Builds the helpers over a harness that is started later (in `beforeAll`). */
export function createSuiteContext(current: () => Harness): SuiteContext {
  const tokens = () => current().service.tokens;
  const main = () => current().service.workspaceIds.main;
  const keysUrl = (query = '', workspace = main()) =>
    `${current().baseUrl}/v1/workspaces/${workspace}/api-keys${query}`;
  const sitesUrl = (workspace = main()) =>
    `${current().baseUrl}/v1/workspaces/${workspace}/websites`;
  const auth = (token = tokens().admin) => ({ authorization: `Bearer ${token}` });
  const list = (query = '', token = tokens().admin) =>
    fetch(keysUrl(query), { headers: auth(token) });
  const create = (body: unknown, token = tokens().admin, workspace = main()) =>
    fetch(sitesUrl(workspace), {
      method: 'POST',
      headers: { ...auth(token), 'content-type': 'application/json' },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });
  async function expectProblem(
    response: Response,
    status: number,
    code: string,
  ): Promise<ProblemDetails> {
    expect(response.status).toBe(status);
    expect(response.headers.get('content-type')).toBe('application/problem+json');
    expect(response.headers.get('x-request-id')).toMatch(/^req_[0-9a-f]{24}$/);
    const body = (await response.json()) as ProblemDetails;
    expect(body).toMatchObject({ status, code, type: `urn:cspwatch:problem:${code}` });
    expect(body.title.length).toBeGreaterThan(0);
    expect(body.detail.length).toBeGreaterThan(0);
    return body;
  }
  async function walk(query: string, limit: number): Promise<MockApiKey[]> {
    const seen: MockApiKey[] = [];
    let cursor: string | null = null;
    do {
      const cursorParam: string = cursor === null ? '' : `&cursor=${encodeURIComponent(cursor)}`;
      const response = await list(`?limit=${limit}${query}${cursorParam}`);
      expect(response.status).toBe(200);
      const page = (await response.json()) as Page;
      expect(page.pagination.hasMore).toBe(page.pagination.nextCursor !== null);
      seen.push(...page.data);
      cursor = page.pagination.nextCursor;
    } while (cursor !== null);
    return seen;
  }
  const control = (method: string, path: string, body?: unknown) =>
    fetch(`${current().baseUrl}/_mock${path}`, {
      method,
      ...(body === undefined
        ? {}
        : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
    });
  async function website(name = 'Shop') {
    const response = await create({ name, url: 'https://shop.example.com' });
    expect(response.status).toBe(201);
    return response.json();
  }
  return {
    control,
    website,
    get harness() {
      return current();
    },
    tokens,
    main,
    keysUrl,
    sitesUrl,
    auth,
    list,
    create,
    expectProblem,
    walk,
  };
}
