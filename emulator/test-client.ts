// A minimal platform client for the emulator's own tests: signs API requests the way the real
// client does (device_id, then X-Bogus last) and keeps a cookie jar for pages and media.
import { loadXBogus } from './guard.ts';
import type { XBogusModule } from './guard.ts';

export const TEST_UA = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36';
export const DEVICE_ID = '7312345678901234567';

export type TestClient = {
  signer: XBogusModule | undefined;
  /** Raw query (without X-Bogus) with the common web params and the given ones. */
  query(params: Record<string, string | number>): string;
  signedPath(path: string, params: Record<string, string | number>): string;
  api(path: string, params: Record<string, string | number>): Promise<Record<string, any>>;
  get(pathAndQuery: string, init?: RequestInit): Promise<Response>;
  cookies: Map<string, string>;
};

export async function createTestClient(base: string): Promise<TestClient> {
  const signer = await loadXBogus();
  const cookies = new Map<string, string>();
  const query = (params: Record<string, string | number>) => {
    const all = { aid: 1988, app_name: 'tiktok_web', device_platform: 'web_pc', device_id: DEVICE_ID, ...params };
    return Object.entries(all).map(([k, v]) => `${k}=${encodeURIComponent(String(v))}`).join('&');
  };
  const sign = (q: string) =>
    signer ? signer.signXBogus(q, TEST_UA, Math.floor(Date.now() / 1000)) : 'DFSzswVYLFJANSqMt8kkae9WX7ro';
  const signedPath = (path: string, params: Record<string, string | number>) => {
    const q = query(params);
    return `${path}?${q}&X-Bogus=${sign(q)}`;
  };
  async function get(pathAndQuery: string, init: RequestInit = {}): Promise<Response> {
    const headers = new Headers(init.headers);
    if (!headers.has('user-agent')) headers.set('user-agent', TEST_UA);
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
  return {
    signer,
    query,
    signedPath,
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
