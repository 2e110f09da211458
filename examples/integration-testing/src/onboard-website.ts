import { type CspwatchClient, isCspwatchError } from '@cspwatch/client';

/** What a site owner needs after onboarding. */
export interface OnboardedWebsite {
  websiteId: string;
  /** Response headers to add to the site. */
  headers: { 'Reporting-Endpoints': string };
  /** Directive to append to the site's Content-Security-Policy. */
  cspDirective: string;
}

/** Thrown by {@link onboardWebsite} when the workspace's plan has no room for another site. */
export class PlanLimitError extends Error {
  override name = 'PlanLimitError';
}

/**
 * "Your" code under test: registers a website and returns the headers to deploy, turning the
 * API's `website_limit_reached` refusal into an error of your own domain.
 */
export async function onboardWebsite(
  client: CspwatchClient,
  workspaceId: string,
  site: { name: string; url: string },
): Promise<OnboardedWebsite> {
  try {
    const website = await client.websites.create(workspaceId, site);
    return {
      websiteId: website.id,
      headers: { 'Reporting-Endpoints': `csp-endpoint="${website.endpointUrl}"` },
      cspDirective: 'report-to csp-endpoint',
    };
  } catch (error) {
    if (isCspwatchError(error) && error.code === 'website_limit_reached') {
      throw new PlanLimitError(`No room for ${site.name}: upgrade the plan or remove a website.`, {
        cause: error,
      });
    }
    throw error;
  }
}
