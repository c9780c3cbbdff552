// Platform sessions inside Chromium: each is a browser context that opened the platform's web
// origin, so the platform's own script signs API calls and the browser keeps the cookies. One
// Chromium serves every session; it starts on first use, restarts after a crash, stops when idle.
import { access, constants } from 'node:fs/promises';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { BrowserName } from '../params.ts';
import type { HttpSession, SessionRequest, SessionResponse } from '../http-session.ts';

export const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run', '--disable-dev-shm-usage'];
const CHROMIUM_CANDIDATES = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome', '/usr/bin/google-chrome-stable'];

/** The first Chromium found among `candidates` (an explicit path first), or undefined. */
export async function findChromium(explicit?: string, candidates = CHROMIUM_CANDIDATES): Promise<string | undefined> {
  for (const file of explicit ? [explicit] : candidates) {
    try {
      await access(file, constants.X_OK);
      return file;
    } catch {
      // not this one
    }
  }
  return undefined;
}

export type BrowserEngineOptions = {
  executablePath: string;
  /** The origin whose start page loads the platform's script; API calls go to it. */
  webOrigin: string;
  /** Chromium closes after this long without a request; contexts keep their cookies meanwhile. */
  idleMs?: number;
  navigationTimeoutMs?: number;
  logger?: { warn(obj: object, msg: string): void; info?(obj: object, msg: string): void };
  /** Injectable for tests; defaults to playwright-core's Chromium launcher. */
  launch?: (executablePath: string) => Promise<Browser>;
};

/** A session that signs in the page: callers hand it unsigned URLs. */
export type BrowserSession = HttpSession & {
  readonly signsInPage: true;
  /** Opens the session's page, so its User-Agent is known. */
  ready(): Promise<void>;
  close(): Promise<void>;
};

export type BrowserEngine = {
  newSession(): Promise<BrowserSession>;
  /** How many times Chromium was started (first start and restarts). */
  readonly launches: number;
  close(): Promise<void>;
};

type StorageState = Awaited<ReturnType<BrowserContext['storageState']>>;
type Launched = { browser: Browser; userAgent: string };

/** Headless Chromium names itself in its User-Agent; every context presents the ordinary browser. */
async function ordinaryUserAgent(browser: Browser): Promise<string> {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    return (await page.evaluate(() => navigator.userAgent)).replace('HeadlessChrome/', 'Chrome/');
  } finally {
    await context.close();
  }
}

async function launchChromium(executablePath: string): Promise<Browser> {
  const { chromium } = await import('playwright-core');
  return chromium.launch({ executablePath, args: CHROMIUM_ARGS });
}

/** Runs `fetch` in the page, so the page's own wrapper adds what the platform wants. */
async function fetchInPage(page: Page, url: string, headers: Record<string, string>): Promise<{ status: number; url: string; headers: [string, string][]; body: string }> {
  return page.evaluate(
    async ({ url, headers }) => {
      const response = await fetch(url, { credentials: 'include', headers });
      const list: [string, string][] = [];
      response.headers.forEach((value, name) => list.push([name, value]));
      return { status: response.status, url: response.url, headers: list, body: await response.text() };
    },
    { url, headers },
  );
}

function abortable<T>(work: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return work;
  if (signal.aborted) return Promise.reject(signal.reason ?? new DOMException('aborted', 'AbortError'));
  work.catch(() => undefined);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason ?? new DOMException('aborted', 'AbortError'));
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

export function createBrowserEngine(options: BrowserEngineOptions): BrowserEngine {
  const idleMs = options.idleMs ?? 5 * 60_000;
  const navigationTimeoutMs = options.navigationTimeoutMs ?? 30_000;
  const launch = options.launch ?? launchChromium;
  let browser: Promise<Launched> | undefined;
  let launches = 0;
  let idleTimer: NodeJS.Timeout | undefined;
  let closed = false;

  function touch(): void {
    clearTimeout(idleTimer);
    idleTimer = setTimeout(() => void stopBrowser('idle'), idleMs);
    idleTimer.unref();
  }

  async function stopBrowser(why: string): Promise<void> {
    const current = browser;
    browser = undefined;
    if (!current) return;
    options.logger?.info?.({ why }, 'browser transport stopped');
    await current.then((l) => l.browser.close()).catch(() => undefined);
  }

  function getBrowser(): Promise<Launched> {
    if (closed) return Promise.reject(new Error('browser transport closed'));
    if (!browser) {
      launches++;
      const started: Promise<Launched> = launch(options.executablePath).then(async (b) => {
        // A crashed or killed Chromium is started again on the next request.
        b.on('disconnected', () => {
          if (browser === started) browser = undefined;
        });
        return { browser: b, userAgent: await ordinaryUserAgent(b) };
      });
      started.catch(() => {
        if (browser === started) browser = undefined;
      });
      browser = started;
    }
    touch();
    return browser;
  }

  async function newSession(): Promise<BrowserSession> {
    let state: StorageState | undefined;
    let open: Promise<{ owner: Browser; context: BrowserContext; page: Page }> | undefined;
    let userAgent = '';

    async function openPage() {
      const launched = await getBrowser();
      const owner = launched.browser;
      const context = await owner.newContext({ userAgent: launched.userAgent, ...(state ? { storageState: state } : {}) });
      const page = await context.newPage();
      await page.goto(`${options.webOrigin}/`, { waitUntil: 'load', timeout: navigationTimeoutMs });
      userAgent = launched.userAgent;
      return { owner, context, page };
    }

    /** The session's page, opened again on a new Chromium (with the cookies kept) when needed. */
    async function page(): Promise<Page> {
      if (open) {
        const current = await open.catch(() => undefined);
        if (current && current.owner.isConnected() && !current.page.isClosed()) {
          touch();
          return current.page;
        }
        if (current?.owner.isConnected()) await current.context.close().catch(() => undefined);
        open = undefined;
      }
      const opening = openPage();
      open = opening;
      opening.catch(() => {
        if (open === opening) open = undefined;
      });
      return (await opening).page;
    }

    /** Keeps the cookies after every exchange, so a Chromium restart does not lose them. */
    async function keepState(target: Page): Promise<void> {
      state = await target.context().storageState().catch(() => state);
    }

    const session: BrowserSession = {
      signsInPage: true,
      browser: 'chrome' as BrowserName,
      get userAgent() {
        return userAgent;
      },
      async ready() {
        await page();
      },
      async fetch(url: string, init: SessionRequest = {}): Promise<SessionResponse> {
        const target = await abortable(page(), init.signal);
        const result = await abortable(fetchInPage(target, url, init.headers ?? {}), init.signal);
        await keepState(target);
        const body = result.body;
        return { status: result.status, headers: new Headers(result.headers), url: result.url, text: async () => body };
      },
      async getCookie(name, url) {
        const current = open ? await open.catch(() => undefined) : undefined;
        const cookies = current?.owner.isConnected() ? await current.context.cookies(url) : (state?.cookies ?? []);
        return cookies.find((c) => c.name === name)?.value;
      },
      async setCookie(name, value, url) {
        const target = await page();
        await target.context().addCookies([{ name, value, url }]);
        await keepState(target);
      },
      async close() {
        const current = open ? await open.catch(() => undefined) : undefined;
        open = undefined;
        await current?.context.close().catch(() => undefined);
      },
    };
    return session;
  }

  return {
    newSession,
    get launches() {
      return launches;
    },
    async close() {
      closed = true;
      clearTimeout(idleTimer);
      await stopBrowser('shutdown');
    },
  };
}
