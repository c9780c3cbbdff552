// One platform request from arrival to bytes: statistics, faults, the guard of its route
// (signature, media cookie + Referer, WAF), the handler or HAR replay, then serialization.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { pipeline as pipe } from 'node:stream/promises';
import { setTimeout as delay } from 'node:timers/promises';
import type { Dataset } from './dataset/dataset.ts';
import { changePageShape, changeShape, decideFaults } from './faults.ts';
import type { FaultConfig, FaultRule } from './faults.ts';
import { checkSigned, checkUnsignedAllowed, msTokenIssued, newMsToken } from './guard.ts';
import type { GuardProfile, Tokens, XBogusModule } from './guard.ts';
import type { Replay } from './har.ts';
import { renderPage } from './handlers/pages.ts';
import type { Reply } from './handlers/types.ts';
import { routeOf } from './router.ts';
import { SDK_COOKIE, type SdkScript } from './sdk.ts';
import type { Route } from './router.ts';
import { camelBody } from './wire/envelope.ts';
import { decodeFileKey, keyedLinkValid, type WireContext } from './wire/urls.ts';
import { mediaStream } from './wire/media-bytes.ts';
import { WAF_COOKIE, WAF_TOKEN_COOKIE, wafAnswerValid, wafChallengePage } from './waf.ts';

export type PipelineState = {
  ds: Dataset;
  signer: XBogusModule | undefined;
  /** `strict` checks signatures, msToken and headers the way the platform does today. */
  profile: GuardProfile;
  tokens: Tokens;
  replay: Replay | undefined;
  faults: FaultConfig;
  counts: Map<string, number>;
  random: () => number;
  wafRate: number;
  apiResponses: number;
  /** The platform SDK the start page runs; undefined when the signing sources cannot be read. */
  sdk: SdkScript | undefined;
  /** Streamed media answers: begun, sent to the end, or cut off because the reader went away. */
  media: MediaStats;
};

export type MediaStats = { started: number; completed: number; aborted: number; bytesSent: number };

export type Arrival = { path: string; rawQuery: string; cookies: Record<string, string>; nowMs: number; ctx: WireContext };

const COOKIE_ATTRS = 'Path=/; SameSite=Lax';
const html = (body: string): Reply => ({ status: 200, headers: { 'content-type': 'text/html; charset=utf-8' }, body });
const empty200 = (): Reply => ({ status: 200, headers: { tt_orcas_res: '1' }, body: '' });

function faultReply(rule: FaultRule, state: PipelineState, a: Arrival): Reply | undefined {
  switch (rule.kind) {
    case 'status_429':
      return { status: 429, headers: { 'retry-after': String(rule.retryAfterSeconds ?? 1), 'content-type': 'text/plain' }, body: 'Too Many Requests' };
    case 'status_5xx':
      return { status: rule.status ?? 503, headers: { 'content-type': 'text/plain' }, body: 'Service Unavailable' };
    case 'empty_200':
      return empty200();
    // A natively signed call is refused, however well signed; calls made by a page running the SDK
    // pass, and so do calls without any signature (the guard decides whether the path allows them).
    case 'refuse_native':
      if (!/(?:^|&)X-(?:Bogus|Gnarly)=/.test(a.rawQuery)) return undefined;
      return state.tokens.valid('sdk', a.cookies[SDK_COOKIE], a.ctx.nowSeconds) ? undefined : empty200();
    case 'waf':
      return html(wafChallengePage(state.tokens));
    case 'captcha':
      return { status: 200, headers: {}, json: { ...camelBody(a.ctx.logid, a.nowMs, 10000, {}), verifyConfig: { type: 'verify', subtype: 'slide', fp: 'verify_' + a.ctx.logid.slice(-12).toLowerCase() } } };
    default:
      return undefined;
  }
}

function refererOk(referer: string | undefined, origin: string): boolean {
  return Boolean(referer && (referer.startsWith('https://www.tiktok.com/') || referer.startsWith(`${origin}/`)));
}

function pageCookies(state: PipelineState, a: Arrival, always: boolean): string[] {
  const out: string[] = [];
  const set = (name: string, value: string, maxAge: number) => {
    if (always || !a.cookies[name]) out.push(`${name}=${value}; Max-Age=${maxAge}; ${COOKIE_ATTRS}`);
  };
  set('ttwid', `1%7C${state.tokens.issue('ttwid')}`, 31_536_000);
  set('tt_chain_token', state.tokens.issue('chain'), 15_552_000);
  set('tt_csrf_token', state.tokens.issue('csrf'), 86_400);
  set('msToken', newMsToken(state.tokens), 864_000);
  return out;
}

function guarded(route: Route, state: PipelineState, req: IncomingMessage, a: Arrival): Reply {
  const platformReq = { method: req.method ?? 'GET', path: a.path, query: new URLSearchParams(a.rawQuery), headers: req.headers, cookies: a.cookies, ctx: a.ctx, nowMs: a.nowMs, ds: state.ds };
  if (route.guard === 'signed' || route.guard === 'unsigned') {
    const signed = { rawQuery: a.rawQuery, userAgent: String(req.headers['user-agent'] ?? ''), body: '', nowSeconds: a.ctx.nowSeconds, headers: req.headers };
    const checks = { profile: state.profile, xBogus: state.signer, msTokenIssued: (value: string) => msTokenIssued(state.tokens, value) };
    const check = route.guard === 'signed' ? checkSigned : checkUnsignedAllowed;
    if (!check(signed, checks)) return empty200();
    const reply = route.handler(platformReq);
    // The platform rotates msToken through Set-Cookie now and then (PLATFORM.md §5.1).
    if (++state.apiResponses % 5 === 0) reply.headers['set-cookie'] = `msToken=${newMsToken(state.tokens)}; Max-Age=864000; ${COOKIE_ATTRS}`;
    return reply;
  }
  if (route.guard === 'media') {
    const chain = state.tokens.valid('chain', a.cookies.tt_chain_token, a.ctx.nowSeconds);
    const forbidden = { status: 403, headers: { 'content-type': 'text/plain' }, body: 'Forbidden' };
    if (!chain || !refererOk(req.headers.referer, a.ctx.origin)) return forbidden;
    const key = decodeFileKey(a.path.split('/').filter(Boolean).pop() ?? '');
    if (key && !keyedLinkValid(key, platformReq.query, a.ctx.nowSeconds)) return forbidden;
    return route.handler(platformReq);
  }
  if (route.guard === 'page') return pageWithWaf(route, state, platformReq, a);
  return route.handler(platformReq);
}

function pageWithWaf(route: Route, state: PipelineState, platformReq: Parameters<Route['handler']>[0], a: Arrival): Reply {
  const cookies: string[] = [];
  if (!state.tokens.valid('waf', a.cookies[WAF_TOKEN_COOKIE], a.ctx.nowSeconds)) {
    if (wafAnswerValid(state.tokens, a.cookies[WAF_COOKIE])) {
      cookies.push(`${WAF_TOKEN_COOKIE}=${state.tokens.issue('waf', a.ctx.nowSeconds + 300)}; Max-Age=300; ${COOKIE_ATTRS}`);
      cookies.push(`${WAF_COOKIE}=; Max-Age=0; ${COOKIE_ATTRS}`);
    } else if (state.wafRate > 0 && state.random() < state.wafRate) {
      return html(wafChallengePage(state.tokens));
    }
  }
  const reply = route.handler(platformReq);
  if (a.path === '/' && reply.page && state.sdk) reply.page.script = state.sdk.render(state.tokens.issue('sdk'));
  cookies.push(...pageCookies(state, a, a.path === '/'));
  reply.headers['set-cookie'] = cookies;
  return reply;
}

function serialize(reply: Reply, rule: FaultRule | undefined): { headers: Record<string, string | string[]>; body: Buffer } {
  const headers = { ...reply.headers };
  if (reply.json) {
    const json = rule?.kind === 'changed_shape' ? changeShape(reply.json) : reply.json;
    let text = JSON.stringify(json);
    if (rule?.kind === 'malformed_json') text = text.slice(0, Math.floor(text.length / 2));
    headers['content-type'] = 'application/json; charset=utf-8';
    return { headers, body: Buffer.from(text) };
  }
  if (reply.page) {
    const scope = rule?.kind === 'changed_shape' ? changePageShape(reply.page.scope) : reply.page.scope;
    let text = renderPage(reply.page.title, scope, reply.page.script);
    if (rule?.kind === 'malformed_json') text = text.replace(/(__UNIVERSAL_DATA_FOR_REHYDRATION__" type="application\/json">)([\s\S]*?)(<\/script>)/, (_, o, d: string, c) => o + d.slice(0, d.length >> 1) + c);
    headers['content-type'] = 'text/html; charset=utf-8';
    return { headers, body: Buffer.from(text) };
  }
  return { headers, body: Buffer.isBuffer(reply.body) ? reply.body : Buffer.from(reply.body ?? '') };
}

/** A generated file, pulled chunk by chunk as the socket drains (a 200 MB file never sits in memory). */
function sendStream(req: IncomingMessage, res: ServerResponse, reply: Reply, stats: MediaStats): void {
  const { file, start, end } = reply.stream!;
  res.writeHead(reply.status, { ...reply.headers, 'content-length': end - start + 1 });
  if (req.method === 'HEAD') return void res.end();
  stats.started += 1;
  const source = mediaStream(file, start, end, (bytes) => {
    stats.bytesSent += bytes;
  });
  pipe(source, res).then(
    () => void (stats.completed += 1),
    () => {
      stats.aborted += 1;
      source.destroy();
    },
  );
}

async function send(req: IncomingMessage, res: ServerResponse, status: number, out: ReturnType<typeof serialize>, rule: FaultRule | undefined): Promise<void> {
  res.writeHead(status, { ...out.headers, 'content-length': out.body.length });
  if (req.method === 'HEAD') return void res.end();
  if (rule?.kind !== 'slow_body' || out.body.length === 0) return void res.end(out.body);
  // slow_body: the body trickles out in ten pieces over latencyMs (default 2 s).
  const pieces = 10;
  const step = Math.ceil(out.body.length / pieces);
  for (let k = 0; k < pieces && !res.destroyed; k++) {
    res.write(out.body.subarray(k * step, (k + 1) * step));
    await delay(Math.floor((rule.latencyMs ?? 2000) / pieces));
  }
  res.end();
}

/** Recorded headers keep repeats (several Set-Cookie lines) as arrays. */
function mergeHeaders(pairs: Array<[string, string]>): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [name, value] of pairs) {
    const key = name.toLowerCase();
    const prev = out[key];
    out[key] = prev === undefined ? value : [...(Array.isArray(prev) ? prev : [prev]), value];
  }
  return out;
}

export function createPipeline(state: PipelineState) {
  return async function pipeline(req: IncomingMessage, res: ServerResponse, a: Arrival): Promise<void> {
    const route = routeOf(a.path);
    const label = route?.label ?? (state.replay ? a.path : '(unmatched)');
    state.counts.set(label, (state.counts.get(label) ?? 0) + 1);
    const decision = decideFaults(state.faults, a.path, state.random);
    if (decision.latencyMs > 0) await delay(decision.latencyMs);
    const rule = decision.rule;
    if (rule?.kind === 'reset') return void req.socket.destroy();
    let reply = rule ? faultReply(rule, state, a) : undefined;
    if (!reply && state.replay) {
      const hit = state.replay.match(req.method ?? 'GET', a.path, new URLSearchParams(a.rawQuery));
      reply = hit ? { status: hit.status, headers: mergeHeaders(hit.headers), body: hit.body } : { status: 404, headers: { 'content-type': 'text/plain' }, body: 'no recording matches' };
    }
    if (!reply) reply = route ? guarded(route, state, req, a) : { status: 404, headers: { 'content-type': 'text/html' }, body: '<!DOCTYPE html><title>Page not found</title>' };
    if (reply.stream) return sendStream(req, res, reply, state.media);
    await send(req, res, reply.status, serialize(reply, rule), rule);
  };
}
