// One browser-like HTTP session per identity: impit (TLS fingerprint, client hints, UA of a real
// browser) with its own cookie jar and optional proxy. The UA is read from what impit really sends.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Impit } from 'impit';
import { CookieJar } from 'tough-cookie';
import type { BrowserName } from './params.ts';

export type SessionResponse = {
  status: number;
  headers: Headers;
  /** Final URL after redirects. */
  url: string;
  text(): Promise<string>;
};

export type SessionRequest = { headers?: Record<string, string>; signal?: AbortSignal };

export interface HttpSession {
  readonly browser: BrowserName;
  readonly userAgent: string;
  fetch(url: string, init?: SessionRequest): Promise<SessionResponse>;
  getCookie(name: string, url: string): Promise<string | undefined>;
  setCookie(name: string, value: string, url: string): Promise<void>;
}

export type SessionFactory = (options: { browser: BrowserName; proxy: string | undefined }) => Promise<HttpSession>;

/** Asks impit, once per browser, which User-Agent it sends, by fetching a loopback echo server. */
async function probeUserAgent(browser: BrowserName): Promise<string> {
  const server = createServer((req, res) => res.end(req.headers['user-agent'] ?? ''));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const { port } = server.address() as AddressInfo;
    const response = await new Impit({ browser, timeout: 5_000 }).fetch(`http://127.0.0.1:${port}/`);
    return await response.text();
  } finally {
    server.close();
  }
}

export function createImpitSessionFactory(options: { timeoutMs: number }): SessionFactory {
  const userAgents = new Map<BrowserName, Promise<string>>();
  return async ({ browser, proxy }) => {
    if (!userAgents.has(browser)) userAgents.set(browser, probeUserAgent(browser));
    const userAgent = await (userAgents.get(browser) as Promise<string>);
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
          ...(init.headers ? { headers: init.headers } : {}),
          ...(init.signal ? { signal: init.signal } : {}),
        });
        return { status: response.status, headers: response.headers, url: response.url, text: () => response.text() };
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
