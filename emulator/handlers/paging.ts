// Exact cursor paging over the emulator's lists, with the platform's cursor styles: decreasing
// or increasing keys (timestamps), offsets, and the popular feed's small decreasing number.
import { hash32 } from '../prng.ts';

export type Page<T> = { items: T[]; hasMore: boolean; cursor: number };

/** The platform sometimes returns fewer items than asked; do it deterministically, now and then. */
export function servedCount(count: number, ...parts: number[]): number {
  const h = hash32(...parts, count);
  if (count < 4 || h % 6 !== 0) return count;
  return Math.max(1, count - 1 - ((h >>> 8) % 5));
}

/** Keys strictly decreasing along the list; `cursor` 0 starts, else serve keys below it. */
export function pageByKeyBelow<T>(list: T[], keyOf: (t: T) => number, cursor: number, count: number): Page<T> {
  let start = 0;
  if (cursor > 0) {
    let lo = 0;
    let hi = list.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (keyOf(list[mid]) < cursor) hi = mid;
      else lo = mid + 1;
    }
    start = lo;
  }
  const items = list.slice(start, start + count);
  const end = start + items.length;
  return { items, hasMore: end < list.length, cursor: items.length ? keyOf(items[items.length - 1]) : cursor };
}

/** Keys strictly increasing along the list; `cursor` 0 starts, else serve keys above it. */
export function pageByKeyAbove<T>(list: T[], keyOf: (t: T) => number, cursor: number, count: number): Page<T> {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (keyOf(list[mid]) > cursor) hi = mid;
    else lo = mid + 1;
  }
  const items = list.slice(lo, lo + count);
  const end = lo + items.length;
  return { items, hasMore: end < list.length, cursor: items.length ? keyOf(items[items.length - 1]) : cursor };
}

/** Offset cursor: the returned cursor is the offset of the next item. */
export function pageByOffset<T>(list: T[], offset: number, count: number): Page<T> {
  const start = Math.max(0, Math.min(offset, list.length));
  const items = list.slice(start, start + count);
  return { items, hasMore: start + items.length < list.length, cursor: start + items.length };
}

/** Popular order: cursor = POPULAR_BASE − offset, a small number that decreases page by page. */
export const POPULAR_BASE = 50_000;

export function pagePopular<T>(list: T[], cursor: number, count: number): Page<T> | undefined {
  const offset = cursor === 0 ? 0 : POPULAR_BASE - cursor;
  if (offset < 0 || offset > list.length) return undefined;
  const page = pageByOffset(list, offset, count);
  return { ...page, cursor: POPULAR_BASE - page.cursor };
}
