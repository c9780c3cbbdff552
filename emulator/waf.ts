// The SlardarWAF proof-of-work page (PLATFORM.md §4): the client finds i with
// sha256(a + str(i)) = c, answers in the `_wafchallengeid` cookie, and gets `_waftokenid`.
import { createHash, randomBytes, randomInt } from 'node:crypto';
import type { Tokens } from './guard.ts';

export const WAF_COOKIE = '_wafchallengeid';
export const WAF_TOKEN_COOKIE = '_waftokenid';
const MAX_NONCE = 200_000;

/** Builds a challenge page; `v.s` is an HMAC over a and c so answers verify without state. */
export function wafChallengePage(tokens: Tokens): string {
  const a = randomBytes(16);
  const i = randomInt(0, MAX_NONCE + 1);
  const c = createHash('sha256').update(Buffer.concat([a, Buffer.from(String(i))])).digest();
  const aText = a.toString('base64');
  const cText = c.toString('base64');
  const cs = { v: { a: aText, c: cText, s: tokens.sign(`waf:${aText}:${cText}`) }, s: 1, t: 'sha256' };
  const csClass = Buffer.from(JSON.stringify(cs)).toString('base64');
  const rs = randomBytes(16).toString('hex');
  return (
    `<!DOCTYPE html><html><head><meta charset="utf-8"><title>Please wait...</title></head><body>` +
    `<p>Please wait...</p>` +
    `<div id="cs" class="${csClass}"></div><div id="wci" class="${WAF_COOKIE}"></div>` +
    `<div id="rci" class="waforiginalreid"></div><div id="rs" class="${rs}"></div>` +
    `<script>/* SlardarWAF */window.__waf_sdk="SlardarWAF";</script></body></html>`
  );
}

/** True when the cookie holds a solved challenge this emulator issued. */
export function wafAnswerValid(tokens: Tokens, cookie: string | undefined): boolean {
  if (!cookie) return false;
  try {
    const answer = JSON.parse(Buffer.from(decodeURIComponent(cookie), 'base64').toString('utf8')) as {
      v?: { a?: unknown; c?: unknown; s?: unknown };
      d?: unknown;
    };
    const { a, c, s } = answer.v ?? {};
    if (typeof a !== 'string' || typeof c !== 'string' || typeof answer.d !== 'string') return false;
    if (s !== tokens.sign(`waf:${a}:${c}`)) return false;
    const i = Buffer.from(answer.d, 'base64').toString('utf8');
    if (!/^\d{1,7}$/.test(i)) return false;
    const digest = createHash('sha256').update(Buffer.concat([Buffer.from(a, 'base64'), Buffer.from(i)])).digest('base64');
    return digest === c;
  } catch {
    return false;
  }
}

/** Reference solver, used by tests and documentation of the rule. */
export function solveWafPage(html: string): { name: string; value: string } | undefined {
  const cs = /id="cs" class="([^"]+)"/.exec(html)?.[1];
  const name = /id="wci" class="([^"]+)"/.exec(html)?.[1];
  if (!cs || !name) return undefined;
  const data = JSON.parse(Buffer.from(cs, 'base64').toString('utf8')) as { v: { a: string; c: string }; d?: string };
  const a = Buffer.from(data.v.a, 'base64');
  for (let i = 0; i <= 1_000_000; i++) {
    const digest = createHash('sha256').update(Buffer.concat([a, Buffer.from(String(i))])).digest('base64');
    if (digest === data.v.c) {
      data.d = Buffer.from(String(i)).toString('base64');
      return { name, value: Buffer.from(JSON.stringify(data)).toString('base64') };
    }
  }
  return undefined;
}
