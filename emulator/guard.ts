// What the platform checks before answering: a 19-digit `device_id`, signatures bound to the query,
// body and User-Agent (X-Bogus, X-Gnarly), an msToken and cookies it issued itself.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { pathToFileURL } from 'node:url';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { md5Hex, utf8Bytes } from '../src/upstream/signing/md5.ts';
import { decodeXGnarly } from '../src/upstream/signing/x-gnarly.ts';

export type XBogusModule = {
  signXBogus(query: string, userAgent: string, unixSeconds: number): string;
  decodeXBogus(value: string): { unixSeconds: number } | undefined;
};

const XBOGUS_ALPHABET = /^[Dkdpgh4ZKsQB80/Mfvw36XI1R25\-WUAlEi7NLboqYTOPuzmFjJnryx9HVGcaStCe=]{28}$/;
const SKEW_SECONDS = 300;

/** The client's signer, when src/upstream/signing/x-bogus.ts exists; the platform computes the same. */
export async function loadXBogus(): Promise<XBogusModule | undefined> {
  const self = fileURLToPath(import.meta.url);
  // `.js` when run from the package's emitted JavaScript (dist/), `.ts` from a clone.
  const file = path.join(path.dirname(self), '..', 'src', 'upstream', 'signing', `x-bogus${path.extname(self)}`);
  try {
    const mod = (await import(pathToFileURL(file).href)) as Partial<XBogusModule>;
    return typeof mod.signXBogus === 'function' && typeof mod.decodeXBogus === 'function' ? (mod as XBogusModule) : undefined;
  } catch {
    return undefined;
  }
}

export type GuardProfile = 'strict' | 'lenient';

export type SignedRequest = {
  rawQuery: string;
  userAgent: string;
  body: string;
  nowSeconds: number;
  /** Request headers, lower-case names. */
  headers: Record<string, string | string[] | undefined>;
};

export type SignatureChecks = {
  profile: GuardProfile;
  xBogus: XBogusModule | undefined;
  /** True for an msToken the emulator issued. */
  msTokenIssued(value: string): boolean;
};

/** The signature parameters at the end of the query, as the SDK appends them (PLATFORM.md §5.2). */
function splitSignature(rawQuery: string): { signed: string; xBogus: string; xGnarly: string | undefined } | undefined {
  const at = rawQuery.lastIndexOf('&X-Bogus=');
  if (at < 0) return undefined;
  const tail = rawQuery.slice(at + '&X-Bogus='.length);
  const gnarlyAt = tail.indexOf('&X-Gnarly=');
  return gnarlyAt < 0
    ? { signed: rawQuery.slice(0, at), xBogus: tail, xGnarly: undefined }
    : { signed: rawQuery.slice(0, at), xBogus: tail.slice(0, gnarlyAt), xGnarly: tail.slice(gnarlyAt + '&X-Gnarly='.length) };
}

/** A JSON API call made by the page's own fetch, not a navigation (Sec-Fetch metadata). */
export function looksLikeApiCall(headers: SignedRequest['headers']): boolean {
  return headers['sec-fetch-mode'] === 'cors' && headers['sec-fetch-dest'] === 'empty' && headers['sec-fetch-user'] === undefined && headers['upgrade-insecure-requests'] === undefined;
}

/** A decoded X-Gnarly that matches this very request: query up to msToken, body, UA, recent time. */
function gnarlyMatches(value: string, signed: string, req: SignedRequest): boolean {
  const fields = decodeXGnarly(value);
  if (!fields) return false;
  const time = fields.get(6);
  return (
    fields.get(3) === md5Hex(utf8Bytes(signed)) &&
    fields.get(4) === md5Hex(utf8Bytes(req.body)) &&
    fields.get(5) === md5Hex(utf8Bytes(req.userAgent)) &&
    typeof time === 'number' &&
    Math.abs(time - req.nowSeconds) <= SKEW_SECONDS
  );
}

/**
 * What the platform checks before answering a signed call (PLATFORM.md §1, §4, §5.2–5.3); a
 * violation gets 200 + empty body + `tt_orcas_res: 1`. Both profiles want a 19-digit device_id and
 * a well-formed signature (a computed X-Bogus, or `X-Bogus=1` with an X-Gnarly that decodes).
 * `strict` also wants the X-Gnarly to match the request, an msToken the emulator issued inside the
 * signed query, and API-call headers.
 */
/**
 * Endpoints that public projects still call with only the common params (PLATFORM.md §5.2): a
 * 19-digit device_id and a verifyFp are all they need. A signature, when sent, must still be valid.
 */
export function checkUnsignedAllowed(req: SignedRequest, checks: SignatureChecks): boolean {
  if (splitSignature(req.rawQuery)) return checkSigned(req, checks);
  const params = new URLSearchParams(req.rawQuery);
  return /^\d{19}$/.test(params.get('device_id') ?? '') && (params.get('verifyFp') ?? '') !== '';
}

export function checkSigned(req: SignedRequest, checks: SignatureChecks): boolean {
  const params = new URLSearchParams(req.rawQuery);
  if (!/^\d{19}$/.test(params.get('device_id') ?? '')) return false;
  const parts = splitSignature(req.rawQuery);
  if (!parts) return false;
  if (checks.profile === 'strict') {
    if (parts.xGnarly === undefined || !gnarlyMatches(parts.xGnarly, parts.signed, req)) return false;
    if (!checks.msTokenIssued(new URLSearchParams(parts.signed).get('msToken') ?? '')) return false;
    if (!looksLikeApiCall(req.headers)) return false;
    return parts.xBogus === '1' || XBOGUS_ALPHABET.test(parts.xBogus);
  }
  if (parts.xGnarly !== undefined) return decodeXGnarly(parts.xGnarly) !== undefined && (parts.xBogus === '1' || XBOGUS_ALPHABET.test(parts.xBogus));
  if (!XBOGUS_ALPHABET.test(parts.xBogus)) return false;
  const signer = checks.xBogus;
  if (!signer) return true;
  const decoded = signer.decodeXBogus(parts.xBogus);
  if (!decoded || Math.abs(decoded.unixSeconds - req.nowSeconds) > SKEW_SECONDS) return false;
  return signer.signXBogus(parts.signed, req.userAgent, decoded.unixSeconds) === parts.xBogus;
}

/** Stateless tokens: random part + HMAC, so any issued value verifies without a table. */
export type Tokens = {
  issue(kind: string, expiresAtSeconds?: number): string;
  valid(kind: string, value: string | undefined, nowSeconds: number): boolean;
  sign(text: string): string;
};

export function createTokens(secret: Buffer = randomBytes(32)): Tokens {
  const mac = (text: string) => createHmac('sha256', secret).update(text).digest('base64url').slice(0, 22);
  return {
    issue(kind, expiresAtSeconds = 0) {
      const body = `${randomBytes(12).toString('base64url')}.${expiresAtSeconds}`;
      return `${body}.${mac(kind + body)}`;
    },
    valid(kind, value, nowSeconds) {
      if (!value) return false;
      const parts = value.split('.');
      if (parts.length !== 3) return false;
      const body = `${parts[0]}.${parts[1]}`;
      const expected = Buffer.from(mac(kind + body));
      const given = Buffer.from(parts[2]);
      if (expected.length !== given.length || !timingSafeEqual(expected, given)) return false;
      const expires = Number(parts[1]);
      return expires === 0 || expires > nowSeconds;
    },
    sign: mac,
  };
}

export function parseCookies(header: string | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  if (!header) return out;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    const name = part.slice(0, eq).trim();
    if (name && !(name in out)) out[name] = part.slice(eq + 1).trim();
  }
  return out;
}

const MS_TOKEN_MAC_CHARS = 22;

/** msToken values look like the platform's (128 base64url characters) and end in our MAC. */
export function newMsToken(tokens: Tokens): string {
  const random = randomBytes(96).toString('base64url').slice(0, 128 - MS_TOKEN_MAC_CHARS);
  return random + tokens.sign(`ms${random}`);
}

export function msTokenIssued(tokens: Tokens, value: string): boolean {
  if (value.length !== 128) return false;
  const random = value.slice(0, -MS_TOKEN_MAC_CHARS);
  const expected = Buffer.from(tokens.sign(`ms${random}`));
  const given = Buffer.from(value.slice(-MS_TOKEN_MAC_CHARS));
  return expected.length === given.length && timingSafeEqual(expected, given);
}
