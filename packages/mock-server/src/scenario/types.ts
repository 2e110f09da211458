/**
 * The scenario JSON, as documented types (the zod schema in `schema.ts` checks the same
 * shape at run time; a compile-time check there keeps the two in step).
 */

/** A workspace and its plan. */
export interface MockScenarioWorkspace {
  /** Workspace id (1 to 64 letters, digits, `_` or `-`). */
  id: string;
  /** Display name. */
  name: string;
  /** The plan: name, features, limits. */
  plan: {
    /** Plan name, e.g. `Team`. */
    name: string;
    /** Plan features. @default ['api_keys', 'webhooks'] */
    features?: ('api_keys' | 'webhooks')[];
    /** Websites the workspace may have. @default 10 */
    websiteLimit?: number;
    /** The `usageLimit` of its websites. @default 1000000 */
    reportsPerMonth?: number;
  };
}

/** A user and their role per workspace. */
export interface MockScenarioUser {
  /** User id. */
  id: string;
  /** E-mail address. */
  email: string;
  /** Given name. @default 'Test' */
  firstName?: string;
  /** Family name. @default 'User' */
  lastName?: string;
  /** Avatar URL. @default generated */
  picture?: string;
  /** Bearer token (16 to 200 characters without spaces). @default generated from the seed */
  token?: string;
  /** Role per workspace id. */
  roles: Record<string, 'admin' | 'member'>;
}

/** An API key; its `cwk_` token is generated (see `GET /_mock/state`). */
export interface MockScenarioApiKey {
  /** Key id. @default generated */
  id?: string;
  /** Owning workspace. */
  workspaceId: string;
  /** Display name. */
  name: string;
  /** Id of the creating user. */
  createdBy: string;
  /** Allowed client addresses. @default [] */
  allowedIps?: string[];
  /** Expiry (ISO 8601 with offset) or `null`. @default null */
  expiresAt?: string | null;
  /** Last use (ISO 8601 with offset) or `null`. @default null */
  lastUsedAt?: string | null;
  /** Creation time (ISO 8601 with offset). @default now */
  createdAt?: string;
}

/** A website; its `endpointUrl` is `{baseUrl}/reports/{endpointId}`. */
export interface MockScenarioWebsite {
  /** Website id. */
  id: string;
  /** Owning workspace. */
  workspaceId: string;
  /** Display name. */
  name: string;
  /** Address of the site (`http:` or `https:`). */
  url: string;
  /** Report endpoint id (8 to 64 lowercase letters or digits). @default generated */
  endpointId?: string;
  /** Ingestion settings. @default the create endpoint's defaults */
  settings?: {
    /** Origins whose reports are accepted. @default [] */
    allowedOrigins?: string[];
    /** Strip query strings and fragments. @default false */
    dropQueryAndFragments?: boolean;
    /** Drop the referrer. @default false */
    dropReferrer?: boolean;
    /** Ignore reports caused by extensions. @default true */
    dropReportsFromExtensions?: boolean;
  };
}

/** A webhook channel of the service (validated by `@cspwatch/webhook-sender`). */
export interface MockScenarioWebhookChannel {
  /** Channel id. */
  id: string;
  /** Display name. */
  name: string;
  /** Delivery URL: https on a public host, or loopback when the mock allows it. */
  url: string;
  /** Signing secret, at least 8 characters; never returned. */
  secret: string;
  /** Start enabled. @default true */
  enabled?: boolean;
}

/** An alert rule: which channels get a website's new-violation-type alerts. */
export interface MockScenarioAlertRule {
  /** Rule id. @default `rule_<n>` */
  id?: string;
  /** Rule name, sent as the alert's `rule`. */
  name: string;
  /** The website watched. */
  websiteId: string;
  /** The webhook channels delivered to. */
  channelIds: string[];
}

/** A scenario to seed the mock with (`POST /_mock/scenario`, `MockService.seed`, `--scenario`). */
export interface MockScenarioInput {
  /** At least one workspace. */
  workspaces: MockScenarioWorkspace[];
  /** Users and their roles. @default [] */
  users?: MockScenarioUser[];
  /** API keys. @default [] */
  apiKeys?: MockScenarioApiKey[];
  /** Websites. @default [] */
  websites?: MockScenarioWebsite[];
  /** The service's webhook channels. @default [] */
  webhookChannels?: MockScenarioWebhookChannel[];
  /** Alert rules. @default [] */
  alertRules?: MockScenarioAlertRule[];
}
