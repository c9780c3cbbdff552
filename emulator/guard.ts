// What the platform checks before answering: a 19-digit `device_id`, an X-Bogus signature bound
// to the query and User-Agent, and cookies it issued itself (tt_chain_token, _waftokenid).
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { pathToFileURL } from 'node:url';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

export type XBogusModule = {
  signXBogus(query: string, userAgent: string, unixSeconds: number): string;
  decodeXBogus(value: string): { unixSeconds: number } | undefined;
};

const XBOGUS_ALPHABET = /^[Dkdpgh4ZKsQB80/Mfvw36XI1R25\-WUAlEi7NLboqYTOPuzmFjJnryx9HVGcaStCe=]{28}$/;
const SKEW_SECONDS = 300;

/** The client's signer, when src/upstream/signing/x-bogus.ts exists; the platform computes the same. */
export async function loadXBogus(): Promise<XBogusModule | undefined> {
  const here = path.dirname(fileURLToPath(import.meta.url));
  const file = path.join(here, '..', 'src', 'upstream', 'signing', 'x-bogus.ts');
  try {
    const mod = (await import(pathToFileURL(file).href)) as Partial<XBogusModule>;
    return typeof mod.signXBogus === 'function' && typeof mod.decodeXBogus === 'function' ? (mod as XBogusModule) : undefined;
  } catch {
    return undefined;
  }
}

/** 200 + empty body + `tt_orcas_res: 1` unless device_id and X-Bogus are right (PLATFORM.md §1, §4). */
export function checkSigned(rawQuery: string, userAgent: string, nowSeconds: number, signer: XBogusModule | undefined): boolean {
  const params = new URLSearchParams(rawQuery);
  if (!/^\d{19}$/.test(params.get('device_id') ?? '')) return false;
  const at = rawQuery.lastIndexOf('&X-Bogus=');
  if (at < 0) return false;
  const value = rawQuery.slice(at + '&X-Bogus='.length);
  if (!XBOGUS_ALPHABET.test(value)) return false;
  if (!signer) return true;
  const signedQuery = rawQuery.slice(0, at);
  const decoded = signer.decodeXBogus(value);
  if (!decoded || Math.abs(decoded.unixSeconds - nowSeconds) > SKEW_SECONDS) return false;
  return signer.signXBogus(signedQuery, userAgent, decoded.unixSeconds) === value;
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

/** msToken values look like the platform's: long base64url-ish strings. */
export function newMsToken(): string {
  return randomBytes(96).toString('base64url').slice(0, 128);
}
