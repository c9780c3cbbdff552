// One browser-like HTTP session per identity: impit (TLS fingerprint, client hints, UA of a real
// browser) with its own cookie jar and optional proxy, presenting the browser of browser-version.ts.
import { Impit } from 'impit';
import { CookieJar } from 'tough-cookie';
import type { BrowserName } from './params.ts';
import { BROWSER } from './browser-version.ts';

export type SessionResponse = {
  status: number;
  headers: Headers;
  /** Final URL after redirects. */
  url: string;
  text(): Promise<string>;
};

export type SessionRequest = { headers?: Record<string, string>; signal?: AbortSignal };

/** A response whose body is read as it arrives (media files), never buffered whole. */
export type StreamedResponse = {
  status: number;
  headers: Headers;
  url: string;
  body: ReadableStream<Uint8Array> | null;
};

export interface HttpSession {
  readonly browser: BrowserName;
  readonly userAgent: string;
  fetch(url: string, init?: SessionRequest): Promise<SessionResponse>;
  getCookie(name: string, url: string): Promise<string | undefined>;
  /** Opens a response to read its body as a stream; `timeoutMs` bounds the whole transfer. */
  stream?(url: string, init?: SessionRequest & { timeoutMs?: number }): Promise<StreamedResponse>;
  setCookie(name: string, value: string, url: string): Promise<void>;
}

export type SessionFactory = (options: { browser: BrowserName; proxy: string | undefined }) => Promise<HttpSession>;

type BodyReader = { headers: Headers; arrayBuffer(): Promise<ArrayBuffer>; text(): Promise<string> };

/**
 * The body as text. UTF-8 (declared, or JSON, which is UTF-8 by RFC 8259) is decoded by Node's own
 * decoder, which takes half the time of impit's charset-sniffing `text()` on a half-megabyte list
 * page (bench/README.md, "Where the time goes"); anything else keeps impit's decoding.
 */
export async function readText(response: BodyReader): Promise<string> {
  if (!isUtf8(response.headers.get('content-type'))) return response.text();
  return Buffer.from(await response.arrayBuffer()).toString('utf8');
}

export function isUtf8(contentType: string | null): boolean {
  if (contentType === null) return false;
  const charset = /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(contentType)?.[1];
  if (charset !== undefined) return /^utf-?8$/i.test(charset);
  return /^\s*application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i.test(contentType);
}

export function createImpitSessionFactory(options: { timeoutMs: number }): SessionFactory {
  return async ({ browser, proxy }) => {
    // impit emulates the TLS and HTTP/2 of its profile; the User-Agent and client hints it would
    // send are replaced per request with the one browser version of browser-version.ts.
    const userAgent = BROWSER.userAgent;
    const jar = new CookieJar();
    const impit = new Impit({
      browser,
      cookieJar: jar,
      timeout: options.timeoutMs,
      ...(proxy ? { proxyUrl: proxy } : {}),
    });
    return {
      browser,
      userAgent,
      async fetch(url, init = {}) {
        const response = await impit.fetch(url, {
          headers: { 'user-agent': userAgent, ...BROWSER.clientHints, ...init.headers },
          ...(init.signal ? { signal: init.signal } : {}),
        });
        return { status: response.status, headers: response.headers, url: response.url, text: () => readText(response) };
      },
      async stream(url, init = {}) {
        const response = await impit.fetch(url, {
          headers: { 'user-agent': userAgent, ...BROWSER.clientHints, ...init.headers },
          ...(init.signal ? { signal: init.signal } : {}),
          ...(init.timeoutMs ? { timeout: init.timeoutMs } : {}),
        });
        return { status: response.status, headers: response.headers, url: response.url, body: response.body };
      },
      async getCookie(name, url) {
        const cookies = await jar.getCookies(url);
        return cookies.find((c) => c.key === name)?.value;
      },
      async setCookie(name, value, url) {
        await jar.setCookie(`${name}=${value}; Path=/`, url);
      },
    };
  };
}
