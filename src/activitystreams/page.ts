// Collection pages and the JSON-LD `@context` every top-level object carries (service-spec.md
// "Envelope and context").
import type { OrderedCollectionPage } from './types.ts';

export const AS_NAMESPACE = 'https://www.w3.org/ns/activitystreams#';

export function toCollectionPage<T>(input: {
  partOf: string;
  totalItems: number;
  cursor: string;
  nextCursor?: string;
  next?: string;
  items: T[];
}): OrderedCollectionPage<T> {
  const page: OrderedCollectionPage<T> = {
    type: 'OrderedCollectionPage',
    partOf: input.partOf,
    totalItems: input.totalItems,
    itemCount: input.items.length,
    cursor: input.cursor,
    orderedItems: input.items,
  };
  // Omitted on the last page, so "no nextCursor" is how a client knows it is done.
  if (input.nextCursor !== undefined) page.nextCursor = input.nextCursor;
  if (input.next !== undefined) page.next = input.next;
  // orderedItems last: the page's own fields read first in a long document.
  const { orderedItems, ...head } = page;
  return { ...head, orderedItems };
}

/** Returns a copy with `@context` as the first key. */
export function withContext<T extends object>(obj: T, socialNsUrl: string): T & { '@context': [string, string] } {
  const context: [string, string] = [AS_NAMESPACE, socialNsUrl];
  return { '@context': context, ...obj };
}
