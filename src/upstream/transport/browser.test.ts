import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { createBrowserEngine, findChromium, type BrowserEngine } from './browser.ts';

// The start page plays a platform SDK: it wraps fetch so every API call carries a header only the
// page's script adds, and the origin sets a cookie the way the platform sets msToken.
const START_PAGE = `<!DOCTYPE html><html><head><script>
  const original = window.fetch;
  window.fetch = (input, init = {}) => {
    const url = new URL(String(input), location.href);
    url.searchParams.set('signed', 'by-page');
    return original(url.href, init);
  };
</script></head><body>start</body></html>`;

const chromium = await findChromium();
let server: Server;
let origin: string;
let engine: BrowserEngine;
const launched: Browser[] = [];

before(async () => {
  server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    if (url.pathname === '/') {
      res.setHeader('set-cookie', 'msToken=issued-by-origin; Path=/');
      res.setHeader('content-type', 'text/html');
      return res.end(START_PAGE);
    }
    res.setHeader('content-type', 'application/json');
    res.setHeader('x-seen', 'yes');
    res.end(JSON.stringify({ signed: url.searchParams.get('signed'), cookie: req.headers.cookie ?? '', mode: req.headers['sec-fetch-mode'] }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  if (!chromium) return;
  engine = createBrowserEngine({
    executablePath: chromium,
    webOrigin: origin,
    launch: async (path) => {
      const { chromium: launcher } = await import('playwright-core');
      const { CHROMIUM_ARGS } = await import('./browser.ts');
      const b = await launcher.launch({ executablePath: path, args: CHROMIUM_ARGS });
      launched.push(b);
      return b;
    },
  });
});

after(async () => {
  await engine?.close();
  server?.close();
});

const skip = chromium ? false : 'no Chromium on this machine (apt-get install chromium)';
if (skip && process.env.CI === 'true') throw new Error('CI=true but no Chromium was found');

test('a browser session fetches through the page, whose own script signs, with the origin\'s cookies', { skip }, async () => {
  const session = await engine.newSession();
  const response = await session.fetch(`${origin}/api/thing/?a=1`);
  assert.equal(response.status, 200);
  assert.equal(response.headers.get('x-seen'), 'yes');
  const body = JSON.parse(await response.text());
  assert.equal(body.signed, 'by-page');
  assert.match(body.cookie, /msToken=issued-by-origin/);
  assert.equal(body.mode, 'cors');
  assert.equal(await session.getCookie('msToken', origin), 'issued-by-origin');
  assert.match(session.userAgent, /Chrome\//);
  await session.close();
});

test('after Chromium dies the next request starts it again and the session keeps its cookies', { skip }, async () => {
  const session = await engine.newSession();
  await (await session.fetch(`${origin}/api/one/`)).text();
  await session.setCookie('kept', 'yes', origin);
  await (await session.fetch(`${origin}/api/one/`)).text();
  const before = engine.launches;
  await launched.at(-1)?.close();
  const body = JSON.parse(await (await session.fetch(`${origin}/api/two/`)).text());
  assert.equal(engine.launches, before + 1);
  assert.match(body.cookie, /kept=yes/);
  await session.close();
});

test('an aborted request rejects at once with the abort reason', { skip }, async () => {
  const session = await engine.newSession();
  const controller = new AbortController();
  controller.abort(new Error('deadline'));
  await assert.rejects(session.fetch(`${origin}/api/three/`, { signal: controller.signal }), /deadline/);
  await session.close();
});
