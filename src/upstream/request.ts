// One platform request on one identity: build and sign the URL, fetch, solve a WAF challenge once,
// classify, parse. Reports exactly one outcome per request and keeps identity health current.
import type { UpstreamConfig } from './config.ts';
import { classifyHttp, isInputRefusal, UpstreamFailure, type Classification } from './classify.ts';
import type { EndpointRequest } from './endpoints.ts';
import type { IdentityHealthStore } from './health.ts';
import type { Identity, IdentityPool } from './identities.ts';
import { buildPlainUrl, buildUnsignedWebUrl, buildWebApiUrl } from './params.ts';
import { headersForKind } from './browser-version.ts';
import type { Signer } from './signing/signer.ts';
import type { UpstreamOutcome } from './types.ts';
import { parseWafChallenge, solveWafChallenge } from './waf.ts';
import { untilAborted } from '../abort.ts';
import { notePlatformTime } from '../request-context.ts';

export { untilAborted };

/**
 * How a request reached the platform: `signed` web API call (reelay's signing profile), `unsigned`
 * web API call (common params only, e.g. the creator feed), `page` load (rehydration HTML),
 * `browser` (a signed call made from a Chromium page), `plain` (webcast room info), `file` (subtitles).
 */
export type RequestRoute = 'signed' | 'unsigned' | 'page' | 'browser' | 'plain' | 'file';

export type OutcomeEvent = { endpoint: string; outcome: UpstreamOutcome; durationMs: number; route: RequestRoute };

const ROUTE_OF_KIND: Record<EndpointRequest['kind'], RequestRoute> = {
  'web-api': 'signed',
  'web-unsigned': 'unsigned',
  page: 'page',
  plain: 'plain',
  raw: 'file',
};

/** Answers about the content (it is missing, private, not shown here): the caller's to handle, not a fault. */
const CONTENT_OUTCOMES: ReadonlySet<UpstreamOutcome> = new Set(['not_found', 'private_account', 'private_content', 'geo_blocked']);

export type UpstreamLogger = {
  warn(obj: object, msg: string): void;
  error?(obj: object, msg: string): void;
  info?(obj: object, msg: string): void;
  debug?(obj: object, msg: string): void;
};

export type RequesterDeps = {
  config: UpstreamConfig;
  clock: { now(): number };
  signer: Signer;
  pool: IdentityPool;
  health: IdentityHealthStore;
  logger?: UpstreamLogger;
  onOutcome?: (event: OutcomeEvent) => void;
};

/** Turns the response text into the result, throwing UpstreamFailure for anything but ok. */
export type ParseBody<T> = (body: string) => T;

export type Answer = { status: number; headers: Headers; body: string; finalUrl: string };

/**
 * A failure before any answer: impit's ConnectError (name lookup, TCP connect, TLS handshake, or
 * the proxy's). Returns a short cause for logs, never the message (it may name a proxy with its
 * password); undefined for failures after the connection was made.
 */
export function connectFailure(error: unknown): string | undefined {
  if (!(error instanceof Error) || error.name !== 'ConnectError') return undefined;
  const text = error.message;
  if (/dns error|failed to lookup|name or service not known/i.test(text)) return 'dns';
  if (/code: 111\b|connection refused/i.test(text)) return 'refused';
  if (/tls|ssl|certificate|handshake|UnexpectedEof/i.test(text)) return 'tls';
  if (/timed out|timeout/i.test(text)) return 'connect_timeout';
  return 'connect';
}

function signsInPage(identity: Identity): boolean {
  return (identity.session as { signsInPage?: boolean }).signsInPage === true;
}

export function createRequester(deps: RequesterDeps) {
  const { config, clock } = deps;
  const tzName = Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';

  async function buildUrl(identity: Identity, req: EndpointRequest): Promise<URL> {
    if (req.kind === 'raw') return new URL(req.url as string);
    const origin = req.origin === 'webcast' ? config.webcastOrigin : config.webOrigin;
    if (req.kind === 'page') return new URL(req.path, origin);
    if (req.kind === 'plain') return buildPlainUrl(origin, req.path, req.params);
    const ctx = {
      profile: identity.profile,
      deviceId: identity.deviceId,
      verifyFp: identity.verifyFp,
      region: config.region,
      language: config.language,
      tzName,
      historyLen: 2,
    };
    if (req.kind === 'web-unsigned') return buildUnsignedWebUrl(origin, req.path, ctx, req.params);
    const inPage = signsInPage(identity);
    const msToken = inPage ? undefined : await identity.session.getCookie('msToken', config.webOrigin);
    const unsigned = buildWebApiUrl(origin, req.path, ctx, req.params, msToken);
    // In a browser page the platform's own script adds msToken and the signatures.
    if (inPage) return new URL(unsigned.href.replace(/[?&]msToken=$/, ''));
    return deps.signer.sign(unsigned, { userAgent: identity.profile.userAgent, nowMs: clock.now() });
  }

  async function headersFor(identity: Identity, req: EndpointRequest, url: URL): Promise<Record<string, string>> {
    // A page's fetch sends the browser's own headers: Referer, Origin and the fetch metadata.
    if (signsInPage(identity)) return {};
    const web = new URL(config.webOrigin);
    const headers = headersForKind(req.kind, req.referer ? new URL(req.referer, web.origin).href : `${web.origin}/`, web.origin);
    // Media and subtitle hosts are not the web origin, so the jar would not send the chain token there.
    if (req.kind === 'raw' && url.host !== web.host) {
      const chain = await identity.session.getCookie('tt_chain_token', config.webOrigin);
      if (chain) headers.cookie = `tt_chain_token=${chain}`;
    }
    return headers;
  }

  async function fetchOnce(identity: Identity, req: EndpointRequest, signal: AbortSignal): Promise<Answer> {
    const url = await buildUrl(identity, req);
    const headers = await headersFor(identity, req, url);
    const sentAt = performance.now();
    const response = await identity.session.fetch(url.href, { headers, signal });
    const body = await response.text();
    notePlatformTime(performance.now() - sentAt);
    return { status: response.status, headers: response.headers, body, finalUrl: response.url || url.href };
  }

  /** Solves the page's challenge and sets the answer cookies; false when it cannot be solved in time. */
  async function passWaf(identity: Identity, body: string): Promise<boolean> {
    const challenge = parseWafChallenge(body);
    if (!challenge) return false;
    const cookies = await solveWafChallenge(challenge, config.wafSolveTimeoutMs, () => clock.now());
    if (!cookies) return false;
    for (const c of cookies) await identity.session.setCookie(c.name, c.value, config.webOrigin);
    return true;
  }

  async function exchange(identity: Identity, req: EndpointRequest, signal: AbortSignal): Promise<Answer> {
    const kind = req.kind === 'page' ? 'page' : req.kind === 'raw' ? 'text' : 'json';
    let answer = await fetchOnce(identity, req, signal);
    let c = classifyHttp(answer, kind, clock.now());
    if (c.reason === 'waf') {
      if (!(await passWaf(identity, answer.body))) throw new UpstreamFailure({ outcome: 'blocked', reason: 'waf_unsolved' });
      answer = await fetchOnce(identity, req, signal);
      c = classifyHttp(answer, kind, clock.now());
      if (c.reason === 'waf') c = { outcome: 'blocked', reason: 'waf_repeated' };
    }
    // An empty 200 often means a stale msToken: working clients fetch a fresh one and try again on
    // the same session once before giving the session up (PLATFORM.md §4, §5.1).
    if (c.reason.startsWith('empty_200') && req.kind === 'web-api' && !signsInPage(identity)) {
      await refreshMsToken(identity, signal);
      answer = await fetchOnce(identity, req, signal);
      c = classifyHttp(answer, kind, clock.now());
    }
    if (c.outcome !== 'ok') throw new UpstreamFailure(c);
    return answer;
  }

  /** The platform's home page sets a new msToken (and the other session cookies) on each visit. */
  async function refreshMsToken(identity: Identity, signal: AbortSignal): Promise<void> {
    const home = new URL('/', config.webOrigin);
    const response = await identity.session.fetch(home.href, { headers: headersForKind('page', home.href, home.origin), signal });
    await response.text();
  }

  function failureOf(error: unknown, signal: AbortSignal, callerSignal: AbortSignal | undefined): UpstreamFailure {
    // The caller gave up (deadline, disconnect): whatever the request did after that says nothing
    // about the platform or the identity.
    if (callerSignal?.aborted) return new UpstreamFailure({ outcome: 'cancelled', reason: 'cancelled' });
    if (error instanceof UpstreamFailure) return error;
    if (signal.aborted) return new UpstreamFailure({ outcome: 'timeout', reason: 'timeout' });
    const cause = connectFailure(error);
    if (cause) return new UpstreamFailure({ outcome: 'unreachable', reason: cause });
    return new UpstreamFailure({ outcome: 'upstream_error', reason: 'network' });
  }

  /** Logged once when the platform stops answering at all, and once when it answers again. */
  let unreachableSince: number | undefined;
  function trackReachability(c: Classification): void {
    if (c.outcome === 'unreachable' && unreachableSince === undefined) {
      unreachableSince = clock.now();
      (deps.logger?.error ?? deps.logger?.warn)?.call(deps.logger, { cause: c.reason }, 'cannot reach the platform: check egress or REELAY_PROXIES');
    } else if (c.outcome !== 'unreachable' && c.outcome !== 'timeout' && unreachableSince !== undefined) {
      deps.logger?.warn({ afterMs: clock.now() - unreachableSince }, 'the platform is reachable again');
      unreachableSince = undefined;
    }
  }

  async function settle(identity: Identity, req: EndpointRequest, c: Classification, startedMs: number) {
    const durationMs = clock.now() - startedMs;
    const route = signsInPage(identity) ? 'browser' : ROUTE_OF_KIND[req.kind];
    deps.onOutcome?.({ endpoint: req.endpoint, outcome: c.outcome, durationMs, route });
    trackReachability(c);
    logOutcome(req, c, route, durationMs);
    if (c.outcome === 'blocked') deps.pool.retire(identity, c.reason);
    // Only the platform's own failures move an identity's health, never the caller's abort or input.
    if (c.outcome === 'cancelled' || isInputRefusal(c)) return;
    try {
      await deps.health.record(identity.id, c.outcome, clock.now());
    } catch (error) {
      deps.logger?.warn({ err: (error as Error).name }, 'identity health store failed');
    }
  }

  /**
   * Successes and abandoned requests at debug; answers the input provoked (no such user, a private
   * account, a 4xx for an odd id) at info, since the client gets a 4xx it can act on; the
   * platform's own failures at warn.
   */
  function logOutcome(req: EndpointRequest, c: Classification, route: RequestRoute, durationMs: number): void {
    const line = { endpoint: req.endpoint, route, outcome: c.outcome, durationMs };
    if (c.outcome === 'ok' || c.outcome === 'cancelled') deps.logger?.debug?.(line, 'platform request');
    else if (CONTENT_OUTCOMES.has(c.outcome) || isInputRefusal(c)) deps.logger?.info?.({ ...line, reason: c.reason }, 'platform request answered with a client error');
    else deps.logger?.warn({ ...line, reason: c.reason }, 'platform request failed');
  }

  /**
   * Performs the request on a leased identity; resolves with the parsed value and the identity used.
   * `signal` ends this attempt (its timeout or the caller); `callerSignal` says the caller gave up.
   */
  async function perform<T>(
    identity: Identity,
    req: EndpointRequest,
    parse: ParseBody<T>,
    signal: AbortSignal,
    callerSignal?: AbortSignal,
  ): Promise<{ value: T; identity: Identity }> {
    const startedMs = clock.now();
    try {
      const answer = await untilAborted(exchange(identity, req, signal), signal);
      const value = parse(answer.body);
      await settle(identity, req, { outcome: 'ok', reason: 'ok' }, startedMs);
      return { value, identity };
    } catch (error) {
      const failure = failureOf(error, signal, callerSignal);
      await settle(identity, req, failure, startedMs);
      throw failure;
    }
  }

  return { perform };
}

export type Requester = ReturnType<typeof createRequester>;
