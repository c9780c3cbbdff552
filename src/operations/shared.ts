// Helpers every operation uses: cached platform calls, user and tag resolution, and the
// collection-page runner that turns platform pages into spec pages with cursors and links.
import type { Fetched, RawPage, RawUserProfile } from '../upstream/types.ts';
import type { OperationDeps } from './types.ts';
import { assemblePage, encodeCursor, openCursor } from './paging.ts';
import { toCollectionPage, withContext, type MapContext } from '../activitystreams/index.ts';

/**
 * A platform call through the cache, so repeated and concurrent identical calls cost one request.
 * `load` gets deps whose client is bound to the load's own signal: a load shared by several callers
 * is cancelled only when all of them have given up.
 */
export async function cachedUpstream<T>(
  deps: OperationDeps,
  policyName: string,
  key: string,
  load: (deps: OperationDeps) => Promise<T>,
): Promise<T> {
  // Only the value is needed: a platform answer just loaded is mapped before it is serialised for the cache.
  const entry = await deps.cache.fetchValue(`up:${key}`, deps.policies[policyName], (signal) => load(withSignal(deps, signal)), deps.signal);
  return entry.value as T;
}

/** The same deps, with the client bound to `signal`. */
export function withSignal(deps: OperationDeps, signal: AbortSignal): OperationDeps {
  return { ...deps, signal, client: deps.client.withSignal(signal) };
}

export function getUserCached(deps: OperationDeps, username: string): Promise<Fetched<RawUserProfile>> {
  return cachedUpstream(deps, 'user', `user:${username}`, (d) => d.client.getUser(username));
}

/** username → secUid changes almost never, so it is kept far longer than the profile. */
export function resolveSecUid(deps: OperationDeps, username: string): Promise<string> {
  return cachedUpstream(deps, 'resolveUser', `resolve-user:${username}`, async (d) => {
    const profile = await getUserCached(d, username);
    return profile.data.user.secUid ?? '';
  });
}

export function mapContext(deps: OperationDeps, chainToken: string | undefined): MapContext {
  return { webOrigin: deps.config.webOrigin, chainToken };
}

export type CollectionSpec<T> = {
  deps: OperationDeps;
  /** Names the collection inside cursors, so a cursor of one collection is refused by another. */
  kind: string;
  count: number;
  cursor: string;
  /** REST path of the collection (`/v1/platform/users/x/videos`), before the public base URL. */
  path: string;
  /** Query parameters that define the collection (e.g. order), repeated in `partOf` and `next`. */
  query?: Record<string, string>;
  loadPage: (platformCursor: string) => Promise<Fetched<RawPage<T>>>;
  idOf: (item: T) => string;
  map: (item: T, ctx: MapContext) => unknown;
  /** Collection size known from elsewhere (profile counts) when the platform page has no total. */
  knownTotal?: () => Promise<number | undefined>;
};

export async function runCollection<T>(spec: CollectionSpec<T>): Promise<unknown> {
  // The collection a cursor is sealed for: the executor's binding (operation and defining
  // parameters), else the kind, path and query of the collection.
  const binding = spec.deps.cursorBinding ?? `${spec.kind}\n${spec.path}\n${new URLSearchParams(spec.query ?? {})}`;
  const start = await openCursor(spec.deps.cursors, binding, spec.kind, spec.cursor);
  let chainToken: string | undefined;
  const page = await assemblePage({
    start,
    count: spec.count,
    idOf: spec.idOf,
    loadPage: async (platformCursor) => {
      const fetched = await spec.loadPage(platformCursor);
      chainToken = fetched.chainToken ?? chainToken;
      return fetched.data;
    },
  });
  const ctx = mapContext(spec.deps, chainToken);
  const base = `${spec.deps.config.publicBaseUrl}${spec.path}`;
  const query = new URLSearchParams(spec.query ?? {});
  const partOf = query.size > 0 ? `${base}?${query}` : base;
  let nextCursor: string | undefined;
  let next: string | undefined;
  if (page.next) {
    nextCursor = spec.deps.cursors.seal(binding, encodeCursor(spec.kind, page.next));
    const nextQuery = new URLSearchParams({ ...spec.query, cursor: nextCursor, count: String(spec.count) });
    next = `${base}?${nextQuery}`;
  }
  // Where neither the platform nor the profile gives a size, totalItems counts the items known so far.
  const totalItems = page.platformTotal ?? (await spec.knownTotal?.()) ?? page.deliveredThrough;
  const body = toCollectionPage({
    partOf,
    totalItems,
    cursor: spec.cursor,
    nextCursor,
    next,
    items: page.items.map((item) => spec.map(item, ctx)),
  });
  return withContext(body, spec.deps.config.socialNsUrl);
}

/** Parses "123" / 123 / undefined counts of the platform into an integer. */
export function toCount(value: number | string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const parsed = typeof value === 'number' ? value : Number.parseInt(value, 10);
  return Number.isFinite(parsed) ? Math.trunc(parsed) : undefined;
}
