// The one place that turns anything the platform answers (HTTP status, headers, body, status
// codes) into an UpstreamOutcome, and outcomes into the AppError codes callers see.
import { AppError, DEADLINE_MESSAGE, type ErrorCode } from '../errors.ts';
import type { UpstreamOutcome } from './types.ts';
import { isWafPage } from './waf.ts';

/** What a request was about, so public messages can name it. */
export type UpstreamSubject = 'user' | 'video' | 'comment' | 'tag' | 'live' | 'list' | 'subtitle';

export type Classification = {
  outcome: UpstreamOutcome;
  /** Internal reason for logs and tests; never shown to clients. */
  reason: string;
  retryAfterSeconds?: number;
};

/** A failed platform request, carried through the resilience policies. */
export class UpstreamFailure extends Error {
  readonly outcome: Exclude<UpstreamOutcome, 'ok'>;
  readonly reason: string;
  readonly retryAfterSeconds: number | undefined;
  constructor(c: Classification) {
    super(`upstream ${c.outcome}: ${c.reason}`);
    this.name = 'UpstreamFailure';
    this.outcome = c.outcome === 'ok' ? 'upstream_error' : c.outcome;
    this.reason = c.reason;
    this.retryAfterSeconds = c.retryAfterSeconds;
  }
  /**
   * Worth another attempt: blocks (after rotating identity), 429, transport errors, 5xx, timeouts,
   * and a body that is not JSON (a truncated answer; resilience.ts retries it once per call).
   */
  get retryable(): boolean {
    if (this.outcome === 'blocked' || this.outcome === 'rate_limited' || this.outcome === 'timeout' || this.outcome === 'unreachable') return true;
    return this.outcome === 'upstream_error' && (this.reason.startsWith('http_5') || this.reason === 'network' || this.reason === MALFORMED_JSON);
  }
}

const ok: Classification = { outcome: 'ok', reason: 'ok' };

/**
 * A 4xx other than 403/404/410/429: the platform refusing what was asked (an odd id or name the
 * caller sent), not failing. It says nothing about the platform's health or the identity's.
 */
export function isInputRefusal(failure: { outcome: UpstreamOutcome; reason: string }): boolean {
  return failure.outcome === 'upstream_error' && /^http_4\d\d$/.test(failure.reason);
}

/** The reason of a 2xx body that does not parse as JSON. */
export const MALFORMED_JSON = 'malformed_json';

/** Platform status codes (PLATFORM.md §4, §2.11). Anything unlisted is an upstream_error. */
const STATUS_CODES: Record<number, Classification> = {
  0: ok,
  10000: { outcome: 'blocked', reason: 'captcha' },
  10101: { outcome: 'blocked', reason: 'risk_control' },
  10102: { outcome: 'private_content', reason: 'login_required' },
  10119: { outcome: 'private_content', reason: 'live_login_required' },
  10202: { outcome: 'not_found', reason: 'user_not_found' },
  10203: { outcome: 'not_found', reason: 'music_not_found' },
  10204: { outcome: 'not_found', reason: 'video_not_found' },
  10205: { outcome: 'not_found', reason: 'tag_not_found' },
  10210: { outcome: 'not_found', reason: 'live_not_found' },
  10215: { outcome: 'not_found', reason: 'video_abnormal' },
  10216: { outcome: 'private_content', reason: 'private_video' },
  10221: { outcome: 'not_found', reason: 'user_banned_or_missing' },
  10222: { outcome: 'private_account', reason: 'private_account' },
  10223: { outcome: 'private_account', reason: 'ftc_account' },
  10231: { outcome: 'geo_blocked', reason: 'geo_blocked' },
  4003110: { outcome: 'private_content', reason: 'live_restricted' },
  19881007: { outcome: 'not_found', reason: 'user_not_found' },
};

export function classifyStatusCode(code: number | undefined): Classification {
  if (code === undefined) return ok;
  return STATUS_CODES[code] ?? { outcome: 'upstream_error', reason: `status_code_${code}` };
}

/** Seconds from a Retry-After header (delta-seconds or HTTP date); undefined when absent or junk. */
export function parseRetryAfter(value: string | null, nowMs: number): number | undefined {
  if (!value) return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - nowMs) / 1000));
}

export type HttpAnswer = { status: number; headers: Headers; body: string; finalUrl?: string };

/** Transport-level classification shared by JSON and page requests. */
export function classifyHttp(answer: HttpAnswer, kind: 'json' | 'page' | 'text', nowMs: number): Classification {
  const { status, headers, body } = answer;
  if (status === 429) {
    const retryAfterSeconds = parseRetryAfter(headers.get('retry-after'), nowMs);
    return { outcome: 'rate_limited', reason: 'http_429', ...(retryAfterSeconds === undefined ? {} : { retryAfterSeconds }) };
  }
  if (status >= 500) return { outcome: 'upstream_error', reason: `http_${status}` };
  if (status === 403) return { outcome: 'blocked', reason: 'http_403' };
  if (status === 404 || status === 410) return { outcome: 'not_found', reason: `http_${status}` };
  if (status < 200 || status >= 300) return { outcome: 'upstream_error', reason: `http_${status}` };
  if (answer.finalUrl && /\/login(?:[/?]|$)/.test(new URL(answer.finalUrl).pathname)) {
    return { outcome: 'blocked', reason: 'login_redirect' };
  }
  // An empty 200 is how the platform rejects a signature, device id or msToken (PLATFORM.md §4).
  if (body.trim() === '') {
    return { outcome: 'blocked', reason: headers.get('tt_orcas_res') ? 'empty_200_orcas' : 'empty_200' };
  }
  // The interstitial is an HTML page: a JSON answer (the common case, often half a megabyte) is not scanned for it.
  if (kind === 'page' || (kind === 'json' && !looksLikeJson(body))) {
    if (isWafPage(body)) return { outcome: 'blocked', reason: 'waf' };
  }
  return ok;
}

/** Starts like a JSON object or array (after any whitespace); anchored, so it reads only the start. */
function looksLikeJson(body: string): boolean {
  return /^\s*[{[]/.test(body);
}

/** Body-level classification of a parsed JSON answer (captcha shapes, status codes). */
export function classifyJsonBody(json: unknown): Classification {
  if (json === null || typeof json !== 'object' || Array.isArray(json)) {
    return { outcome: 'upstream_error', reason: 'changed_shape' };
  }
  const body = json as Record<string, unknown>;
  if (body.type === 'verify' || 'verify_event' in body || 'captcha' in body) return { outcome: 'blocked', reason: 'captcha' };
  const code = pickStatusCode(body);
  if (code === 'invalid') return { outcome: 'upstream_error', reason: 'changed_shape' };
  return classifyStatusCode(code);
}

function pickStatusCode(body: Record<string, unknown>): number | undefined | 'invalid' {
  const raw = body.statusCode ?? body.status_code;
  if (raw === undefined || raw === null) return undefined;
  const code = typeof raw === 'string' && /^\d+$/.test(raw) ? Number(raw) : raw;
  return typeof code === 'number' ? code : 'invalid';
}

/** JSON text to a value, or the classification of why it is not JSON. */
export function parseJsonBody(body: string): { json: unknown } | { failure: Classification } {
  try {
    return { json: JSON.parse(body) };
  } catch {
    return { failure: { outcome: 'upstream_error', reason: MALFORMED_JSON } };
  }
}

type Rendering = { code: ErrorCode; message: (s: UpstreamSubject) => string };

const SUBJECT_NAMES: Record<UpstreamSubject, string> = {
  user: 'user',
  video: 'video',
  comment: 'comment',
  tag: 'hashtag',
  live: 'live stream',
  list: 'list',
  subtitle: 'transcript',
};

/** The outcome → AppError table. Messages are public: no URLs, cookies or tokens ever. */
const RENDERINGS: Record<Exclude<UpstreamOutcome, 'ok'>, Rendering> = {
  not_found: { code: 'not_found', message: (s) => `The platform says this ${SUBJECT_NAMES[s]} does not exist.` },
  private_account: { code: 'private_account', message: () => 'This account is private on the platform.' },
  private_content: {
    code: 'private_content',
    message: (s) => `The platform does not make this ${SUBJECT_NAMES[s]} public.`,
  },
  geo_blocked: { code: 'geo_blocked', message: () => 'The platform does not offer this content in our region.' },
  blocked: { code: 'upstream_blocked', message: () => 'The platform refused our requests for now; try again later.' },
  rate_limited: { code: 'upstream_blocked', message: () => 'The platform is rate limiting our requests; try again later.' },
  upstream_error: { code: 'upstream_error', message: () => 'The platform answered with an error or an unexpected response.' },
  timeout: { code: 'upstream_timeout', message: () => 'The platform did not answer in time.' },
  unreachable: {
    code: 'platform_unreachable',
    message: () => 'reelay cannot reach the platform (name lookup, connection or TLS failed); its operator should check egress or REELAY_PROXIES.',
  },
  cancelled: { code: 'upstream_timeout', message: () => DEADLINE_MESSAGE },
};

export function toAppError(
  failure: UpstreamFailure,
  subject: UpstreamSubject,
  defaults: { blockedRetryAfterSeconds: number },
): AppError {
  const rendering = RENDERINGS[failure.outcome];
  const retryAfterSeconds =
    failure.outcome === 'blocked' || failure.outcome === 'rate_limited'
      ? (failure.retryAfterSeconds ?? defaults.blockedRetryAfterSeconds)
      : failure.retryAfterSeconds;
  return new AppError(rendering.code, rendering.message(subject), {
    cause: failure,
    ...(retryAfterSeconds === undefined ? {} : { retryAfterSeconds }),
  });
}
