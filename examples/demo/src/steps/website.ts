import type { CspwatchClient } from '@cspwatch/client';
import type { Output } from '../output';

/** What the website step produced. */
export interface WebsiteStepResult {
  id: string;
  endpointUrl: string;
  reportingEndpointsHeader: string;
  cspDirective: string;
}

/** Creates a website with the client and shows the headers a site owner adds. */
export async function createWebsiteStep(
  client: CspwatchClient,
  workspaceId: string,
  out: Output,
): Promise<WebsiteStepResult> {
  out.step('Create a website (client.websites.create)');
  const website = await client.websites.create(workspaceId, {
    name: 'Demo shop',
    url: 'https://shop.example.com',
  });
  const reportingEndpointsHeader = `Reporting-Endpoints: csp-endpoint="${website.endpointUrl}"`;
  const cspDirective = 'report-to csp-endpoint';
  out.ok(`created ${out.style('cyan', website.id)} (${website.name}, ${website.url})`);
  out.line(`endpointUrl: ${website.endpointUrl}`);
  out.line('The site owner adds these response headers to start collecting reports:');
  out.line(`  ${out.style('yellow', reportingEndpointsHeader)}`);
  out.line(
    `  ${out.style('yellow', `Content-Security-Policy: default-src 'self'; ${cspDirective}`)}`,
  );
  return {
    id: website.id,
    endpointUrl: website.endpointUrl,
    reportingEndpointsHeader,
    cspDirective,
  };
}
