/**
 * `cspwatch-mock trigger`: sends one signed `csp-violation:new-type` alert to a receiver and
 * prints the outcome, like `stripe trigger`. It is the sender's send flow
 * (`@cspwatch/webhook-sender/cli`) with the alert as payload: the same delivery flags,
 * checks, output and exit codes as `cspwatch-webhook`. The secret is never printed.
 */
import { readFile } from 'node:fs/promises';
import { type BuildAlertInput, buildAlert, isWebhookSenderError } from '@cspwatch/webhook-sender';
import {
  DELIVERY_USAGE,
  type Payload,
  type SendCommand,
  type SendFlagValues,
  UsageError,
} from '@cspwatch/webhook-sender/cli';
import { sampleAlertInput } from '../alerts/trigger';

/** The `--help` text of `cspwatch-mock trigger`. */
export const TRIGGER_USAGE = `Usage: cspwatch-mock trigger --url <url> [--allow-loopback] [alert] [check] [secret] [options]

Signs one csp-violation:new-type alert exactly like the service does and POSTs it to
<url>, then prints what the receiver answered. A receiver on this machine needs
--allow-loopback, as in cspwatch-webhook.

Alert (default: a sample alert):
  --directive <name>   effective directive of the finding (default script-src-elem)
  --origin <origin>    blocked origin of the finding (default https://cdn.evil.example)
  --rule <name>        rule name (default "New violation types")
  --website-url <url>  website URL (default https://shop.example.com)
  --alert-file <path>  a JSON file of buildAlert input instead (rule, website, findings,
                       window, dashboardUrl); excludes the flags above
  -h, --help           show this help

${DELIVERY_USAGE}
`;

const SAMPLE_FLAGS = ['directive', 'origin', 'rule', 'website-url'] as const;

/** The flag behind each field of the sample alert, so an error names what the user typed. */
const FIELD_FLAGS: Readonly<Record<string, string>> = {
  rule: '--rule',
  'website.url': '--website-url',
  'findings.0.effectiveDirective': '--directive',
  'findings.0.blockedUrlOrigin': '--origin',
};

/** The buildAlert input the flags describe: the sample with overrides, or the alert file. */
async function alertInput(values: SendFlagValues): Promise<BuildAlertInput> {
  const text = (flag: string) => values[flag] as string | undefined;
  const file = text('alert-file');
  if (file === undefined) {
    return sampleAlertInput({
      ...(text('directive') === undefined ? {} : { directive: text('directive') as string }),
      ...(text('origin') === undefined ? {} : { origin: text('origin') as string }),
      ...(text('rule') === undefined ? {} : { rule: text('rule') as string }),
      ...(text('website-url') === undefined ? {} : { websiteUrl: text('website-url') as string }),
    });
  }
  if (SAMPLE_FLAGS.some((flag) => values[flag] !== undefined))
    throw new UsageError('--alert-file excludes --directive, --origin, --rule and --website-url');
  let source: string;
  try {
    source = await readFile(file, 'utf8');
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    throw new UsageError(`--alert-file: cannot read ${file} (${String(code ?? error)})`);
  }
  try {
    return JSON.parse(source) as BuildAlertInput;
  } catch (error) {
    throw new UsageError(`--alert-file: ${file} is not valid JSON (${(error as Error).message})`);
  }
}

/** `cspwatch-mock trigger` as a command of the shared send flow. */
export const TRIGGER_COMMAND: SendCommand = {
  name: 'cspwatch-mock trigger',
  usage: TRIGGER_USAGE,
  options: {
    directive: { type: 'string' },
    origin: { type: 'string' },
    rule: { type: 'string' },
    'website-url': { type: 'string' },
    'alert-file': { type: 'string' },
  },
  // `--to` was trigger's flag before `--url`; it keeps allowing loopback for one release.
  urlAliases: ['to'],
  payload: async (values) => {
    const input = await alertInput(values);
    const fromFile = values['alert-file'] !== undefined;
    try {
      const alert = buildAlert(input);
      return { payload: alert as unknown as Payload, what: `${alert.eventType} alert` };
    } catch (error) {
      if (!isWebhookSenderError(error)) throw error;
      const issues = error.issues.map((issue) =>
        !fromFile && FIELD_FLAGS[issue.path] !== undefined
          ? `${FIELD_FLAGS[issue.path]} ${issue.message}`
          : `${issue.path} ${issue.message}`,
      );
      throw new UsageError(`${fromFile ? '--alert-file: ' : ''}${issues.join('; ')}`);
    }
  },
};
