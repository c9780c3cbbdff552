// The platform client: PlatformClient over the identity pool, signer, resilience policies and the
// endpoint parsers. Every method resolves with validated raw data or rejects with an AppError.
import { LRUCache } from 'lru-cache';
import { AppError } from '../errors.ts';
import { UpstreamFailure, type UpstreamSubject } from './classify.ts';
import { resolveUpstreamConfig, type UpstreamConfig } from './config.ts';
import { endpoints, type EndpointRequest } from './endpoints.ts';
import { createMemoryIdentityHealthStore, type IdentityHealthStore } from './health.ts';
import { createImpitSessionFactory, type SessionFactory } from './http-session.ts';
import { createIdentityPool, type IdentityStates, type Lease } from './identities.ts';
import { createBrowserEngine, type BrowserEngine } from './transport/browser.ts';
import { createTransportChooser } from './transport/fallback.ts';
import { parsers } from './normalize.ts';
import { createRequester, type OutcomeEvent, type ParseBody, type UpstreamLogger } from './request.ts';
import { createResilience } from './resilience.ts';
import { createMediaFetcher, type MediaFetcher } from './media-fetch.ts';
import { createSigner, type Signer } from './signing/signer.ts';
import type { RawItem } from './raw.ts';
import type { Fetched, PageRequest, PlatformClient, RawPage, UserOrder } from './types.ts';

export type PlatformClientDeps = {
  config: UpstreamConfig;
  clock?: { now(): number };
  logger?: UpstreamLogger;
  onOutcome?: (event: OutcomeEvent) => void;
  /** Told when the platform's refusal takes an identity out of rotation, with the reason. */
  onIdentityRetired?: (reason: string) => void;
  identityHealth?: IdentityHealthStore;
  /** Defaults to the profile named in `config.signing`. */
  signer?: Signer;
  /** Defaults to impit sessions; tests may inject their own. */
  createSession?: SessionFactory;
  /** Defaults to Chromium at `config.browser.executablePath` when the browser mode is not off. */
  browserEngine?: BrowserEngine;
};

type Step<T> = { request: EndpointRequest; parse: ParseBody<T> };

/** Prefix of platform cursors minted by the creator feed. */
const CREATOR_CURSOR = 'c:';

export type PlatformClientHandle = PlatformClient & {
  close(): Promise<void>;
  browserEndpoints(): string[];
  /** Each called endpoint's breaker: 0 closed, 1 open, 2 half-open (metrics). */
  breakerStates(): Array<{ endpoint: string; state: 0 | 1 | 2 }>;
  /** The identity pool by state (metrics). */
  identityStates(): Promise<IdentityStates>;
  /** A CDN file of a video, through the identity that fetched the video. */
  openMedia: MediaFetcher['open'];
};

export function createPlatformClient(deps: PlatformClientDeps): PlatformClientHandle {
  const config = resolveUpstreamConfig(deps.config);
  const clock = deps.clock ?? { now: () => Date.now() };
  const health = deps.identityHealth ?? createMemoryIdentityHealthStore();
  const pool = createIdentityPool({
    config,
    clock,
    health,
    createSession: deps.createSession ?? createImpitSessionFactory({ timeoutMs: config.requestTimeoutMs }),
    ...(deps.logger ? { logger: deps.logger } : {}),
    ...(deps.onIdentityRetired ? { onRetire: deps.onIdentityRetired } : {}),
  });
  const requester = createRequester({
    config,
    clock,
    pool,
    health,
    signer: deps.signer ?? createSigner(config.signing),
    ...(deps.logger ? { logger: deps.logger } : {}),
    ...(deps.onOutcome ? { onOutcome: deps.onOutcome } : {}),
  });
  const resilience = createResilience(config, deps.logger);
  const browser = config.browser;
  const transports = createTransportChooser({
    settings: browser,
    engine:
      deps.browserEngine ??
      (browser.mode !== 'off' && browser.executablePath
        ? createBrowserEngine({ executablePath: browser.executablePath, webOrigin: config.webOrigin, ...(deps.logger ? { logger: deps.logger } : {}) })
        : undefined),
    clock,
    ...(deps.logger ? { logger: deps.logger } : {}),
  });
  const media = createMediaFetcher({ pool, webOrigin: config.webOrigin, headersTimeoutMs: config.requestTimeoutMs });
  // Last page seen per list, to catch the platform sending the same page for a new cursor.
  const lastPages = new LRUCache<string, { cursor: string; ids: string }>({ max: 5_000 });
  let closed = false;

  async function performOn<T>(lease: Lease, step: Step<T>, signal: AbortSignal, callerSignal: AbortSignal | undefined): Promise<Fetched<T>> {
    try {
      // Waiting for an identity may outlast the caller: send nothing then.
      if (signal.aborted) throw new UpstreamFailure({ outcome: callerSignal?.aborted ? 'cancelled' : 'timeout', reason: 'aborted_before_sending' });
      const { value, identity } = await requester.perform(lease.identity, step.request, step.parse, signal, callerSignal);
      const chainToken = await identity.session.getCookie('tt_chain_token', config.webOrigin);
      return { data: value, chainToken };
    } finally {
      lease.release();
    }
  }

  async function runStep<T>(step: Step<T>, callerSignal: AbortSignal | undefined): Promise<Fetched<T>> {
    return resilience.guardRequest(
      step.request.endpoint,
      async (signal) => {
        if (transports.useBrowser(step.request)) return performOn(await transports.acquire(), step, signal, callerSignal);
        try {
          return await performOn(await pool.acquire(), step, signal, callerSignal);
        } catch (error) {
          // Refused natively: the same request again at once in a page that runs the platform's script.
          if (error instanceof UpstreamFailure && error.outcome === 'blocked' && transports.refusedNatively(step.request, error.reason)) {
            return performOn(await transports.acquire(), step, signal, callerSignal);
          }
          throw error;
        }
      },
      callerSignal,
    );
  }

  /** Primary endpoints now answered by another route: logged once when that starts and ends. */
  const onOtherRoute = new Set<string>();
  function noteRoute(primary: string, answered: string): void {
    if (answered !== primary && !onOtherRoute.has(primary)) {
      onOtherRoute.add(primary);
      deps.logger?.warn({ endpoint: primary, route: answered }, 'the platform refused this route; another one answered');
    } else if (answered === primary && onOtherRoute.delete(primary)) {
      deps.logger?.warn({ endpoint: primary }, 'this route answers again');
    }
  }

  /**
   * Runs the steps in order, moving to the next only when the platform blocked the previous one.
   * When `callerSignal` aborts, the call rejects at once and its platform request is aborted.
   */
  function call<T>(subject: UpstreamSubject, callerSignal: AbortSignal | undefined, steps: Array<Step<T>>): Promise<Fetched<T>> {
    if (closed) return Promise.reject(new AppError('unavailable', 'The platform client is shut down.'));
    return resilience.guardCall(subject, async (attempt) => {
      // Alternate which path goes first, so a path that keeps failing does not shadow the other.
      const ordered = attempt % 2 === 1 ? [...steps].reverse() : steps;
      let lastFailure: unknown;
      for (const step of ordered) {
        try {
          const answer = await runStep(step, callerSignal);
          noteRoute(steps[0].request.endpoint, step.request.endpoint);
          return answer;
        } catch (error) {
          lastFailure = error;
          if (!(error instanceof UpstreamFailure && error.outcome === 'blocked')) throw error;
        }
      }
      throw lastFailure;
    }, callerSignal);
  }

  /** A list step whose parse also rejects a repeated page (identical ids for a different cursor). */
  function listStep<T>(
    request: EndpointRequest,
    listKey: string,
    cursor: string,
    parse: ParseBody<RawPage<T>>,
    idOf: (item: T) => string,
  ): Step<RawPage<T>> {
    return {
      request,
      parse: (text) => {
        const page = parse(text);
        const ids = page.items.map(idOf).join(',');
        const previous = lastPages.get(listKey);
        if (ids !== '' && previous && previous.cursor !== cursor && previous.ids === ids) {
          throw new UpstreamFailure({ outcome: 'blocked', reason: 'same_page_again' });
        }
        lastPages.set(listKey, { cursor, ids });
        return page;
      },
    };
  }

  const itemId = (item: { id: string }) => item.id;

  /**
   * The unsigned creator feed. Its cursors are times, unlike the signed list's, so they carry the
   * route's prefix and a cursor it minted continues there (PLATFORM.md §2.3).
   */
  function creatorStep(secUid: string, cursorMs: number): Step<RawPage<RawItem>> {
    const step = listStep(endpoints.creatorPosts(secUid, cursorMs), `creator:${secUid}`, String(cursorMs), parsers.creatorList(cursorMs), itemId);
    return {
      request: step.request,
      parse: (text) => {
        const page = step.parse(text);
        return { ...page, nextCursor: page.nextCursor === undefined ? undefined : `${CREATOR_CURSOR}${page.nextCursor}` };
      },
    };
  }

  function userPosts(signal: AbortSignal | undefined, secUid: string, order: UserOrder, page: PageRequest): Promise<Fetched<RawPage<RawItem>>> {
    if (page.cursor.startsWith(CREATOR_CURSOR)) {
      const ms = Number(page.cursor.slice(CREATOR_CURSOR.length));
      if (order !== 'newest' || !Number.isSafeInteger(ms) || ms <= 0) {
        return Promise.reject(new AppError('invalid_cursor', 'The cursor does not belong to this list; start again from cursor=0.'));
      }
      return call('list', signal, [creatorStep(secUid, ms)]);
    }
    const steps = [listStep(endpoints.userPosts(secUid, order, page), `posts:${order}:${secUid}`, page.cursor, parsers.itemList, itemId)];
    // Only newest-first has a second route; other orders are never served in a different order.
    if (order === 'newest' && page.cursor === '0') steps.push(creatorStep(secUid, clock.now()));
    return call('list', signal, steps);
  }

  /** The signed list first, then the same call with only the common params (PLATFORM.md §5.2). */
  function withUnsigned<T>(step: Step<T>): Array<Step<T>> {
    return [step, { request: endpoints.unsigned(step.request), parse: step.parse }];
  }

  /** The client's calls, each cancelled by `signal`. */
  const bound = (signal: AbortSignal | undefined): PlatformClient => ({
    withSignal: bound,
    getUser: (username) =>
      call('user', signal, [
        { request: endpoints.userDetail(username), parse: parsers.userDetail },
        { request: endpoints.userPage(username), parse: parsers.userPage },
      ]),
    getUserPosts: (secUid, order, page) => userPosts(signal, secUid, order, page),
    getUserReposts: (secUid, page) =>
      call('list', signal, withUnsigned(listStep(endpoints.userReposts(secUid, page), `reposts:${secUid}`, page.cursor, parsers.itemList, itemId))),
    getUserLikes: (secUid, page) =>
      call('list', signal, withUnsigned(listStep(endpoints.userLikes(secUid, page), `likes:${secUid}`, page.cursor, parsers.likes, itemId))),
    getUserPlaylists: (secUid, page) =>
      call('list', signal, [
        listStep(endpoints.userPlaylists(secUid, page), `playlists:${secUid}`, page.cursor, parsers.playlists, (p) => p.mixId ?? p.id ?? ''),
      ]),
    getUserFollowers: (secUid, page) =>
      call('list', signal, [
        listStep(endpoints.userFollowers(secUid, page), `followers:${secUid}`, page.cursor, parsers.followers, (e) => e.user.id),
      ]),
    getVideo: (videoId) =>
      call('video', signal, [
        { request: endpoints.itemDetail(videoId), parse: parsers.itemDetail },
        { request: endpoints.videoPage(videoId), parse: parsers.videoPage },
      ]),
    getComments: (videoId, page) =>
      call('video', signal, [
        listStep(endpoints.comments(videoId, page, config.region), `comments:${videoId}`, page.cursor, parsers.comments, (c) => c.cid),
      ]),
    getReplies: (videoId, commentId, page) =>
      call('comment', signal, [
        listStep(
          endpoints.replies(videoId, commentId, page, config.region),
          `replies:${videoId}:${commentId}`,
          page.cursor,
          parsers.comments,
          (c) => c.cid,
        ),
      ]),
    getTag: (tagName) => call('tag', signal, [{ request: endpoints.challengeDetail(tagName), parse: parsers.challenge }]),
    getTagVideos: (challengeId, page) =>
      call('list', signal, [listStep(endpoints.challengeItems(challengeId, page), `tag:${challengeId}`, page.cursor, parsers.itemList, itemId)]),
    getLiveRoom: (username) => call('user', signal, [{ request: endpoints.liveUserRoom(username), parse: parsers.liveRoom }]),
    getRoomInfo: (roomId) => call('live', signal, [{ request: endpoints.roomInfo(roomId), parse: parsers.roomInfo }]),
    getSubtitle: (url) => {
      if (!/^https?:\/\//i.test(url)) return Promise.reject(new AppError('invalid_request', 'The subtitle URL is not an http(s) URL.'));
      return call('subtitle', signal, [{ request: endpoints.subtitle(url), parse: parsers.subtitle }]);
    },
  });

  return {
    ...bound(undefined),
    /** Endpoints now served through the browser transport. */
    browserEndpoints: () => transports.browserEndpoints(),
    /** A CDN file of a video, through the identity that fetched the video. */
    openMedia: (request, signal) => media.open(request, signal),
    breakerStates: () => resilience.breakerStates(),
    identityStates: () => pool.states(),
    async close() {
      closed = true;
      await transports.close();
    },
  };
}
