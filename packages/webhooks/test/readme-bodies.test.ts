/**
 * The reference's table of body types (docs/webhooks-reference.md) is checked for real: every
 * row names a body kind, each kind is built from a signed delivery and verified, and a kind
 * added to the test but not to the table (or the other way round) fails.
 */
import { readFileSync } from 'node:fs';
import { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { readRawBody } from '../src/fetch';
import { type RawBody, verifyWebhook } from '../src/index';
import { createSignedDelivery } from '../src/testing';

const SECRET = 'readme-bodies-secret';
const readme = readFileSync(
  fileURLToPath(new URL('../../../docs/webhooks-reference.md', import.meta.url)),
  'utf8',
);

/** The first cell of each row of the table whose header is `| body | pass it |`. */
function bodyRows(): string[] {
  const lines = readme.split('\n');
  const start = lines.findIndex((line) => /^\|\s*body\s*\|\s*pass it\s*\|/.test(line));
  expect(start, 'docs/webhooks-reference.md has a "| body | pass it |" table').toBeGreaterThan(-1);
  const rows: string[] = [];
  for (const line of lines.slice(start + 2)) {
    if (!line.startsWith('|')) break;
    rows.push(line.split('|')[1]!.trim());
  }
  return rows;
}

const encoder = new TextEncoder();
/** How each table row's body is made from the delivery text, and turned into a RawBody. */
const makers: Record<string, (text: string) => Promise<RawBody>> = {
  '`string`': async (text) => text,
  '`Uint8Array` / `Buffer`': async (text) => Buffer.from(text),
  '`ArrayBuffer`': async (text) => encoder.encode(text).buffer,
  '`DataView`': async (text) => {
    const bytes = encoder.encode(`xx${text}yy`);
    return new DataView(bytes.buffer, 2, bytes.byteLength - 4);
  },
  '`ReadableStream` (Web)': (text) =>
    readRawBody(
      new ReadableStream({
        start(controller) {
          controller.enqueue(text.slice(0, 10)); // text and bytes chunks mixed
          controller.enqueue(encoder.encode(text.slice(10)));
          controller.close();
        },
      }),
    ),
  '`Readable` (Node, `IncomingMessage`)': (text) =>
    readRawBody(Readable.from([Buffer.from(text.slice(0, 7)), Buffer.from(text.slice(7))])),
};

describe('docs/webhooks-reference.md: the body table', () => {
  it('lists exactly the body kinds this test verifies', () => {
    expect(bodyRows().sort()).toEqual(Object.keys(makers).sort());
  });

  it.each(Object.keys(makers))('%s verifies as the table says', async (row) => {
    const { body, headers } = await createSignedDelivery({
      secret: SECRET,
      payload: '{"eventType":"x","é":1}',
    });
    const raw = await makers[row]!(body);
    expect(await verifyWebhook({ body: raw, headers, secret: SECRET })).toEqual(JSON.parse(body));
  });
});
