// A minimal platform client for the emulator's own tests: signs API requests the way today's web
// app does (device_id and msToken in the query, then X-Bogus=1 and an X-Gnarly sealing it), sends
// API-call headers, and keeps a cookie jar for pages and media. `legacyPath` signs the 2024 way.
import { randomInt } from 'node:crypto';
import { loadXBogus } from './guard.ts';
import type { XBogusModule } from './guard.ts';
import { encodeXGnarly, requestFields } from '../src/upstream/signing/x-gnarly.ts';

export const TEST_UA = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36';
export const DEVICE_ID = '7312345678901234567';

export type TestClient = {
  signer: XBogusModule | undefined;
  /** Raw query (without X-Bogus) with the common web params and the given ones. */
  query(params: Record<string, string | number>): string;
  signedPath(path: string, params: Record<string, string | number>): string;
  /** The 2024 scheme: a computed X-Bogus and nothing else (accepted by the lenient profile only). */
  legacyPath(path: string, params: Record<string, string | number>): string;
  api(path: string, params: Record<string, string | number>): Promise<Record<string, any>>;
  get(pathAndQuery: string, init?: RequestInit): Promise<Response>;
  cookies: Map<string, string>;
};

export async function createTestClient(base: string): Promise<TestClient> {
  const signer = await loadXBogus();
  const cookies = new Map<string, string>();
  const query = (params: Record<string, string | number>) => {
    const all = { aid: 1988, app_name: 'tiktok_web', device_platform: 'web_pc', device_id: DEVICE_ID, ...params, msToken: cookies.get('msToken') ?? '' };
    return Object.entries(all).map(([k, v]) => `${k}=${encodeURIComponent(String(v))}`).join('&');
  };
  const sign = (q: string) =>
    signer ? signer.signXBogus(q, TEST_UA, Math.floor(Date.now() / 1000)) : 'DFSzswVYLFJANSqMt8kkae9WX7ro';
  const seal = (q: string) =>
    encodeXGnarly(
      requestFields({ query: q, body: '', userAgent: TEST_UA, nowMs: Date.now(), envCode: 1, ubCode: 0, canvas: 1508145731, version: '5.1.1', scmVersion: '1.0.0.314' }),
      () => randomInt(0, 2 ** 32),
    );
  const signedPath = (path: string, params: Record<string, string | number>) => {
    const q = query(params);
    return `${path}?${q}&X-Bogus=1&X-Gnarly=${seal(q)}`;
  };
  const legacyPath = (path: string, params: Record<string, string | number>) => {
    const q = query(params);
    return `${path}?${q}&X-Bogus=${sign(q)}`;
  };
  async function get(pathAndQuery: string, init: RequestInit = {}): Promise<Response> {
    const headers = new Headers(init.headers);
    if (!headers.has('user-agent')) headers.set('user-agent', TEST_UA);
    // JSON API calls carry the fetch metadata of the page's own fetch.
    if (/^\/(api|webcast)[/-]/.test(pathAndQuery) && !headers.has('sec-fetch-mode')) {
      headers.set('sec-fetch-mode', 'cors');
      headers.set('sec-fetch-dest', 'empty');
    }
    if (cookies.size && !headers.has('cookie')) headers.set('cookie', [...cookies].map(([k, v]) => `${k}=${v}`).join('; '));
    const res = await fetch(base + pathAndQuery, { ...init, headers });
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const eq = pair.indexOf('=');
      const value = pair.slice(eq + 1);
      if (/Max-Age=0/.test(line)) cookies.delete(pair.slice(0, eq));
      else cookies.set(pair.slice(0, eq), value);
    }
    return res;
  }
  // The platform's home page issues msToken and the other session cookies.
  await (await get('/')).arrayBuffer();
  return {
    signer,
    query,
    signedPath,
    legacyPath,
    async api(path, params) {
      const res = await get(signedPath(path, params));
      const text = await res.text();
      if (!text) throw new Error(`empty body from ${path}`);
      return JSON.parse(text);
    },
    get,
    cookies,
  };
}

/** Extracts the rehydration scope of a page. */
export function scopeOf(html: string): Record<string, any> {
  const m = /<script id="__UNIVERSAL_DATA_FOR_REHYDRATION__" type="application\/json">([\s\S]*?)<\/script>/.exec(html);
  if (!m) throw new Error('no rehydration script');
  return JSON.parse(m[1]).__DEFAULT_SCOPE__;
}
