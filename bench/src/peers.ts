/**
 * The peers of the verify benchmark, each verifying a valid signature of its own scheme over
 * the same body: stripe `webhooks.constructEvent`, svix `Webhook.verify`, standardwebhooks
 * `Webhook.verify`, @octokit/webhooks-methods `verify`. Each is checked to accept its delivery
 * (and reject a tampered one) before it is timed, so no peer is timed on an error path.
 */
import { sign as octokitSign, verify as octokitVerify } from '@octokit/webhooks-methods';
import { Webhook as StandardWebhook } from 'standardwebhooks';
import Stripe from 'stripe';
import { Webhook as SvixWebhook } from 'svix';

/** A peer verifying one body; `fn` is timed. Octokit takes strings only. */
export interface PeerTask {
  name: string;
  parsesJson: boolean;
  string: () => unknown;
  buffer: (() => unknown) | undefined;
}

const STRIPE_SECRET = 'whsec_bench_0123456789abcdef';
// svix and standardwebhooks secrets are base64 of the key bytes.
const SVIX_SECRET = `whsec_${Buffer.from('bench-secret-0123456789abcdef').toString('base64')}`;
const STANDARD_SECRET = Buffer.from('bench-secret-0123456789abcdef').toString('base64');
const OCTOKIT_SECRET = 'bench-secret-0123456789abcdef';
/** Large tolerance (s) so a delivery signed at the start of a group never expires in it. */
const STRIPE_TOLERANCE_S = 3600;

async function expectValid(name: string, check: () => unknown, tampered: () => unknown) {
  const ok = await Promise.resolve()
    .then(check)
    .then((value) => value !== false);
  if (!ok) throw new Error(`${name} rejected its own valid delivery`);
  const rejected = await Promise.resolve()
    .then(tampered)
    .then(
      (value) => value === false,
      () => true,
    );
  if (!rejected) throw new Error(`${name} accepted a tampered delivery`);
}

/** Builds each peer's valid delivery of `body` and the functions to time. */
export async function createPeerTasks(body: string): Promise<PeerTask[]> {
  const buffer = Buffer.from(body);
  const tampered = `${body} `;
  const stripeHeader = Stripe.webhooks.generateTestHeaderString({
    payload: body,
    secret: STRIPE_SECRET,
  });
  const stripe = (payload: string | Buffer) =>
    Stripe.webhooks.constructEvent(payload, stripeHeader, STRIPE_SECRET, STRIPE_TOLERANCE_S);

  const svix = new SvixWebhook(SVIX_SECRET);
  const svixId = 'msg_bench';
  const now = new Date();
  const svixHeaders = {
    'svix-id': svixId,
    'svix-timestamp': String(Math.floor(now.getTime() / 1000)),
    'svix-signature': svix.sign(svixId, now, body),
  };

  const standard = new StandardWebhook(STANDARD_SECRET);
  const standardHeaders = {
    'webhook-id': svixId,
    'webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
    'webhook-signature': standard.sign(svixId, now, body),
  };

  const octokitSignature = await octokitSign(OCTOKIT_SECRET, body);

  const tasks: PeerTask[] = [
    {
      name: 'stripe constructEvent',
      parsesJson: true,
      string: () => stripe(body),
      buffer: () => stripe(buffer),
    },
    {
      name: 'svix Webhook.verify',
      parsesJson: true,
      string: () => svix.verify(body, svixHeaders),
      buffer: () => svix.verify(buffer, svixHeaders),
    },
    {
      name: 'standardwebhooks verify',
      parsesJson: true,
      string: () => standard.verify(body, standardHeaders),
      buffer: () => standard.verify(buffer, standardHeaders),
    },
    {
      name: '@octokit/webhooks-methods verify',
      parsesJson: false,
      string: () => octokitVerify(OCTOKIT_SECRET, body, octokitSignature),
      buffer: undefined,
    },
  ];
  await expectValid(
    'stripe',
    () => stripe(buffer),
    () => stripe(tampered),
  );
  await expectValid(
    'svix',
    () => svix.verify(buffer, svixHeaders),
    () => svix.verify(tampered, svixHeaders),
  );
  await expectValid(
    'standardwebhooks',
    () => standard.verify(buffer, standardHeaders),
    () => standard.verify(tampered, standardHeaders),
  );
  await expectValid(
    'octokit',
    () => octokitVerify(OCTOKIT_SECRET, body, octokitSignature),
    () => octokitVerify(OCTOKIT_SECRET, tampered, octokitSignature),
  );
  return tasks;
}
