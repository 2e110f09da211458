import { listApiKeys } from './api-keys';
import type { RouteHandler } from './context';
import { listDeliveries, receiveDelivery } from './inbox';
import { serveOpenApi } from './openapi';
import { receiveReports } from './reports';
import { createWebsite } from './websites';

/** One path of the service and the handler of each method it allows. */
export interface Route {
  /** Path segments; `{name}` marks a parameter (the paths of the mock's OpenAPI documents). */
  segments: string[];
  /** Whether the route is part of the REST API (fault injection applies). */
  rest: boolean;
  /** Handlers by method. */
  methods: Partial<Record<string, RouteHandler>>;
}

/** Every route of the mock service. */
export const ROUTES: readonly Route[] = [
  {
    segments: ['v1', 'workspaces', '{workspaceId}', 'api-keys'],
    rest: true,
    methods: { GET: listApiKeys },
  },
  {
    segments: ['v1', 'workspaces', '{workspaceId}', 'websites'],
    rest: true,
    methods: { POST: createWebsite },
  },
  { segments: ['reports', '{endpointId}'], rest: false, methods: { POST: receiveReports } },
  { segments: ['inbox', '{channelId}'], rest: false, methods: { POST: receiveDelivery } },
  {
    segments: ['inbox', '{channelId}', 'deliveries'],
    rest: false,
    methods: { GET: listDeliveries },
  },
  { segments: ['openapi.json'], rest: false, methods: { GET: serveOpenApi } },
];

/** The route matching a path, with its decoded parameters; `undefined` for an unknown path. */
export function matchRoute(
  pathname: string,
  routes: readonly Route[] = ROUTES,
): { route: Route; params: string[] } | undefined {
  const parts = pathname.split('/').slice(1);
  for (const route of routes) {
    if (route.segments.length !== parts.length) continue;
    const params: string[] = [];
    const matches = route.segments.every((segment, index) => {
      const part = parts[index]!;
      if (!segment.startsWith('{')) return segment === part;
      try {
        const value = decodeURIComponent(part);
        params.push(value);
        return value.length > 0;
      } catch {
        return false;
      }
    });
    if (matches) return { route, params };
  }
  return undefined;
}
