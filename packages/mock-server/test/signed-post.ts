import { createSignedDelivery, type SignedDeliveryOptions } from '@cspwatch/webhooks/testing';

/** A signed sample delivery as `fetch` init: POST, the exact body, the three headers. */
export async function signedPost(
  options: SignedDeliveryOptions,
): Promise<RequestInit & { body: string }> {
  const { body, headers } = await createSignedDelivery(options);
  return { method: 'POST', body, headers: Object.entries(headers) };
}
