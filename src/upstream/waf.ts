// Recognises the platform's WAF interstitial and solves its SHA-256 proof of work (PLATFORM.md §4):
// find i with sha256(base64dec(v.a) + String(i)) = base64dec(v.c), then answer in a cookie.
import { createHash } from 'node:crypto';

export type WafChallenge = {
  /** Decoded `cs` JSON; the answer is this object plus `d`. */
  data: Record<string, unknown> & { v: { a: string; c: string } };
  cookieName: string;
  /** Optional second cookie the page asks to echo (`rci` name, `rs` value). */
  extraCookie: { name: string; value: string } | undefined;
};

export type WafCookie = { name: string; value: string };

const SEARCH_MAX = 1_000_000;
/** Hashes per slice before yielding to the event loop, so other requests keep flowing. */
const SLICE = 5_000;

export function isWafPage(body: string): boolean {
  return body.includes('SlardarWAF') || (body.includes('Please wait...') && /\bid=["']cs["']/.test(body));
}

function elementClass(html: string, id: string): string | undefined {
  const tag = new RegExp(`<[a-z]+[^>]*\\bid=["']${id}["'][^>]*>`, 'i').exec(html)?.[0];
  if (!tag) return undefined;
  return /\bclass=["']([^"']*)["']/i.exec(tag)?.[1];
}

export function parseWafChallenge(html: string): WafChallenge | undefined {
  const cs = elementClass(html, 'cs');
  if (!cs) return undefined;
  let data: unknown;
  try {
    data = JSON.parse(Buffer.from(cs, 'base64').toString('utf8'));
  } catch {
    return undefined;
  }
  if (!isChallengeData(data)) return undefined;
  const rciName = elementClass(html, 'rci');
  const rsValue = elementClass(html, 'rs');
  return {
    data,
    cookieName: elementClass(html, 'wci') || '_wafchallengeid',
    extraCookie: rciName && rsValue ? { name: rciName, value: rsValue } : undefined,
  };
}

function isChallengeData(value: unknown): value is WafChallenge['data'] {
  if (typeof value !== 'object' || value === null) return false;
  const v = (value as { v?: unknown }).v;
  if (typeof v !== 'object' || v === null) return false;
  const { a, c } = v as { a?: unknown; c?: unknown };
  return typeof a === 'string' && typeof c === 'string' && a !== '' && c !== '';
}

const yieldToLoop = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/**
 * Finds the nonce and builds the answer cookies; undefined when no nonce exists in range or the
 * time budget runs out (the caller then classifies the page as `blocked`).
 */
export async function solveWafChallenge(
  challenge: WafChallenge,
  timeoutMs: number,
  now: () => number = Date.now,
): Promise<WafCookie[] | undefined> {
  const prefix = Buffer.from(challenge.data.v.a, 'base64');
  const expected = Buffer.from(challenge.data.v.c, 'base64');
  const deadline = now() + timeoutMs;
  for (let start = 0; start <= SEARCH_MAX; start += SLICE) {
    const end = Math.min(start + SLICE - 1, SEARCH_MAX);
    for (let i = start; i <= end; i += 1) {
      const digest = createHash('sha256').update(prefix).update(String(i)).digest();
      if (digest.equals(expected)) return answerCookies(challenge, i);
    }
    if (now() >= deadline) return undefined;
    await yieldToLoop();
  }
  return undefined;
}

function answerCookies(challenge: WafChallenge, nonce: number): WafCookie[] {
  const answer = { ...challenge.data, d: Buffer.from(String(nonce)).toString('base64') };
  const cookies = [{ name: challenge.cookieName, value: Buffer.from(JSON.stringify(answer)).toString('base64') }];
  if (challenge.extraCookie) cookies.push(challenge.extraCookie);
  return cookies;
}
