/** The public part of a user, as embedded in an API key (`createdByUser`). */
export interface MockUserSummary {
  /** User id. */
  id: string;
  /** E-mail address. */
  email: string;
  /** Given name. */
  firstName: string;
  /** Family name. */
  lastName: string;
  /** Avatar URL. */
  picture: string;
}

/** A role a user holds on a workspace. Only `admin` may list keys and create websites. */
export type MockWorkspaceRole = 'admin' | 'member';

/** A signed-in user of the mock, with the bearer token that authenticates as them. */
export interface MockUser extends MockUserSummary {
  /** Bearer token (an opaque mock access token). */
  token: string;
  /** The user's role per workspace id; a workspace not listed is not theirs. */
  roles: Record<string, MockWorkspaceRole>;
}

/** A workspace plan: its features and limits. */
export interface MockPlan {
  /** Plan name, e.g. `Business`. */
  name: string;
  /** Feature flags, e.g. `api_keys`. */
  features: string[];
  /** How many websites the workspace may have. */
  websiteLimit: number;
  /** The `usageLimit` given to new websites (reports per month). */
  reportsPerMonth: number;
}

/** A workspace and its plan. */
export interface MockWorkspace {
  /** Workspace id. */
  id: string;
  /** Display name. */
  name: string;
  /** The plan the workspace is on. */
  plan: MockPlan;
}

/**
 * An API key as the list endpoint returns it (`ApiKey` in the API document, see
 * docs/api-contract.md); never holds the secret.
 */
export interface MockApiKey {
  /** Key id. */
  id: string;
  /** Owning workspace. */
  workspaceId: string;
  /** Display name. */
  name: string;
  /** Short leading part of the key, e.g. `cwk_3f9a`. */
  prefix: string;
  /** Id of the user who created the key. */
  createdBy: string;
  /** The user who created the key. */
  createdByUser: MockUserSummary;
  /** Allowed client addresses (IPs or CIDR ranges); empty means any. */
  allowedIps: string[];
  /** Expiry (ISO 8601), or `null` for a key that never expires. */
  expiresAt: string | null;
  /** Last use (ISO 8601), or `null` for a key never used. */
  lastUsedAt: string | null;
  /** Creation time (ISO 8601). */
  createdAt: string;
  /** Last update (ISO 8601). */
  updatedAt: string;
}

/** Ingestion settings of a website (`WebsiteSettings` in the API document, see docs/api-contract.md). */
export interface MockWebsiteSettings {
  /** Origins whose reports are accepted; empty means any. */
  allowedOrigins: string[];
  /** Strip query strings and fragments from reported URLs. */
  dropQueryAndFragments: boolean;
  /** Drop the referrer from reports. */
  dropReferrer: boolean;
  /** Ignore reports caused by browser extensions. */
  dropReportsFromExtensions: boolean;
}

/** A website as the create endpoint returns it (`Website` in the API document, see docs/api-contract.md). */
export interface MockWebsite {
  /** Website id. */
  id: string;
  /** Owning workspace. */
  workspaceId: string;
  /** Display name. */
  name: string;
  /** Address of the site. */
  url: string;
  /** The provisioned report-collection URL. */
  endpointUrl: string;
  /** Whether the endpoint accepts reports. */
  endpointEnabled: boolean;
  /** Reports per month the website may ingest. */
  usageLimit: number;
  /** Ingestion settings. */
  settings: MockWebsiteSettings;
  /** The caller's role on the website; the creator gets `manager`. */
  role: string;
  /** Creation time (ISO 8601). */
  createdAt: string;
  /** Last update (ISO 8601). */
  updatedAt: string;
}
