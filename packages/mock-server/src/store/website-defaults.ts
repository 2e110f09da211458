import type { MockWebsiteSettings } from './resources';

/** Settings of a new website when the request leaves them out. */
export const DEFAULT_WEBSITE_SETTINGS: Readonly<MockWebsiteSettings> = Object.freeze({
  allowedOrigins: [],
  dropQueryAndFragments: false,
  dropReferrer: false,
  dropReportsFromExtensions: true,
});

/** The role the creator holds on a new website: `manager`, the website role the spec names for managing channels. */
export const CREATOR_WEBSITE_ROLE = 'manager';
