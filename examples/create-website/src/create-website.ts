import { createCspwatchClient, type Website } from '@cspwatch/client';
import { connect, type ScriptEnv } from '@cspwatch/example-script-connection';

/** Options of {@link createWebsite}. */
export interface CreateWebsiteScriptOptions {
  /** Environment: `CSPWATCH_BASE_URL`, `CSPWATCH_TOKEN`, `CSPWATCH_WORKSPACE_ID`. */
  env: ScriptEnv;
  /** Where output lines go. */
  print: (line: string) => void;
  /** Display name of the website. */
  name: string;
  /** Address of the site. */
  url: string;
}

/** The website created and the two header values a site owner adds. */
export interface CreateWebsiteResult {
  website: Website;
  reportingEndpointsHeader: string;
  cspDirective: string;
  usingMockServer: boolean;
}

/**
 * The `Reporting-Endpoints` response header that names the report collection endpoint, and
 * the CSP directive that sends violation reports to it.
 */
export function reportingHeaders(endpointUrl: string): {
  reportingEndpoints: string;
  directive: string;
} {
  return {
    reportingEndpoints: `Reporting-Endpoints: csp-endpoint="${endpointUrl}"`,
    directive: 'report-to csp-endpoint',
  };
}

/** Registers a website and prints its report endpoint and the headers to add to the site. */
export async function createWebsite(
  options: CreateWebsiteScriptOptions,
): Promise<CreateWebsiteResult> {
  const { env, print } = options;
  const connection = await connect(env, print);
  try {
    const client = createCspwatchClient({ baseUrl: connection.baseUrl, token: connection.token });
    const website = await client.websites.create(connection.workspaceId, {
      name: options.name,
      url: options.url,
    });
    const headers = reportingHeaders(website.endpointUrl);
    print(`Created website ${website.id} (${website.name}, ${website.url})`);
    print(`Report endpoint: ${website.endpointUrl}`);
    print('');
    print('Add these response headers to your site:');
    print(`  ${headers.reportingEndpoints}`);
    print(`  Content-Security-Policy: <your policy>; ${headers.directive}`);
    return {
      website,
      reportingEndpointsHeader: headers.reportingEndpoints,
      cspDirective: headers.directive,
      usingMockServer: connection.usingMockServer,
    };
  } finally {
    await connection.close();
  }
}
