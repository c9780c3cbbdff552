// Turns platform pages of whatever size into client pages of exactly `count` items.
// A client cursor is opaque: it encodes the platform cursor of the page being read, the offset
// inside that page, how many items came before, and which collection it belongs to; it is sealed
// (cursor-keys.ts) so that only cursors reelay handed out for that very collection are accepted.
import { z } from 'zod';
import { AppError } from '../errors.ts';
import type { RawPage } from '../upstream/types.ts';
import type { CursorSigner } from './cursor-keys.ts';

export type CursorState = {
  /** Platform cursor of the platform page being read ("0" for the first). */
  platformCursor: string;
  /** Items of that platform page already delivered. */
  offset: number;
  /** Items of the collection delivered before this page. */
  delivered: number;
};

const CursorWire = z.object({
  k: z.string().max(64),
  p: z.string().max(64).regex(/^-?[0-9A-Za-z_.:-]*$/),
  o: z.number().int().min(0).max(10_000),
  n: z.number().int().min(0).max(10_000_000),
});

const FIRST: CursorState = { platformCursor: '0', offset: 0, delivered: 0 };

export function encodeCursor(kind: string, state: CursorState): string {
  const wire = { k: kind, p: state.platformCursor, o: state.offset, n: state.delivered };
  return Buffer.from(JSON.stringify(wire)).toString('base64url');
}

export const invalidCursor = () =>
  new AppError('invalid_cursor', 'The cursor is not one this collection handed out; start again from cursor=0.', {
    details: { params: [{ name: 'cursor', reason: 'not a cursor this collection handed out' }] },
  });

/**
 * "0" is the first page; anything else must be a cursor reelay sealed for this very collection
 * (`binding`): forged, altered, expired or foreign cursors are invalid_cursor and never reach the platform.
 */
export async function openCursor(signer: CursorSigner, binding: string, kind: string, cursor: string): Promise<CursorState> {
  if (cursor === '0' || cursor === '') return FIRST;
  if (!/^[A-Za-z0-9_.-]{1,600}$/.test(cursor)) throw invalidCursor();
  const payload = await signer.open(binding, cursor);
  if (payload === undefined) throw invalidCursor();
  return decodeCursor(kind, payload);
}

/** The paging state inside a cursor's payload (which `openCursor` has authenticated). */
export function decodeCursor(kind: string, cursor: string): CursorState {
  if (cursor === '0' || cursor === '') return FIRST;
  const invalid = invalidCursor;
  if (!/^[A-Za-z0-9_-]{1,512}$/.test(cursor)) throw invalid();
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw invalid();
  }
  const result = CursorWire.safeParse(parsed);
  if (!result.success || result.data.k !== kind) throw invalid();
  return { platformCursor: result.data.p, offset: result.data.o, delivered: result.data.n };
}

export type AssembledPage<T> = {
  items: T[];
  /** Cursor state of the page after this one, or undefined on the last page. */
  next: CursorState | undefined;
  /** The platform's total for the collection, where it gives one. */
  platformTotal: number | undefined;
  /** Items delivered up to and including this page. */
  deliveredThrough: number;
};

/** Reads platform pages from `start` until `count` items are gathered or the collection ends. */
export async function assemblePage<T>(options: {
  start: CursorState;
  count: number;
  loadPage: (platformCursor: string) => Promise<RawPage<T>>;
  idOf: (item: T) => string;
  /** Upper bound on platform pages read for one client page (empty pages included). */
  maxPlatformPages?: number;
}): Promise<AssembledPage<T>> {
  const { count, loadPage, idOf } = options;
  const maxPages = options.maxPlatformPages ?? 8;
  const items: T[] = [];
  const seen = new Set<string>();
  let platformCursor = options.start.platformCursor;
  let offset = options.start.offset;
  let platformTotal: number | undefined;
  for (let pagesRead = 0; pagesRead < maxPages; pagesRead++) {
    const page = await loadPage(platformCursor);
    platformTotal = page.total ?? platformTotal;
    const available = page.items.slice(offset);
    for (let i = 0; i < available.length; i++) {
      if (items.length === count) {
        const next = { platformCursor, offset: offset + i, delivered: options.start.delivered + items.length };
        return { items, next, platformTotal, deliveredThrough: next.delivered };
      }
      const id = idOf(available[i]);
      if (seen.has(id)) continue;
      seen.add(id);
      items.push(available[i]);
    }
    const moreOnPlatform = page.hasMore && page.nextCursor !== undefined && page.nextCursor !== platformCursor;
    const deliveredThrough = options.start.delivered + items.length;
    if (!moreOnPlatform) return { items, next: undefined, platformTotal, deliveredThrough };
    platformCursor = page.nextCursor as string;
    offset = 0;
    if (items.length === count) {
      return { items, next: { platformCursor, offset: 0, delivered: deliveredThrough }, platformTotal, deliveredThrough };
    }
  }
  // The platform kept answering empty or short pages: hand back what we have and let the client continue.
  const deliveredThrough = options.start.delivered + items.length;
  return { items, next: { platformCursor, offset, delivered: deliveredThrough }, platformTotal, deliveredThrough };
}
