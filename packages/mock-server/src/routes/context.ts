import type { CursorCodec } from '../cursor';
import type { Inbox } from '../inbox';
import type { InMemoryStore } from '../store';

/** What every route handler gets: the shared state of one service. */
export interface RouteContext {
  store: InMemoryStore;
  inbox: Inbox;
  cursors: CursorCodec;
}

/** A route handler: the request, its decoded path parameters and the service state. */
export type RouteHandler = (
  request: Request,
  params: string[],
  context: RouteContext,
) => Promise<Response>;

/** Counts characters as code points, as JSON Schema's `maxLength` does. */
export function codePointLength(text: string): number {
  let length = 0;
  for (const _ of text) length++;
  return length;
}
