// The interactive reference at /docs in a real browser (Debian's Chromium through playwright-core),
// offline: every request off the service's origin is refused and must never be attempted. The
// reader authorizes with an API key, runs "get user" against the emulator-backed stack and sees the
// 200. Saves test-artifacts/docs.png.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Request } from 'playwright-core';
import { startStack, type Stack } from '../helpers/stack.ts';
import { freePort } from '../helpers/ports.ts';

const CHROMIUM = '/usr/bin/chromium';
const ARTIFACTS = fileURLToPath(new URL('../../test-artifacts/', import.meta.url));
const present = existsSync(CHROMIUM);
if (!present && process.env.CI === 'true') throw new Error(`${CHROMIUM} is missing: the docs browser test cannot run under CI`);
if (!present) console.warn(`\n*** SKIPPING the /docs browser test: ${CHROMIUM} is absent (apt-get install -y chromium) ***\n`);

let stack: Stack;
let origin: string;
let browser: Browser;

before(async () => {
  if (!present) return;
  const port = await freePort();
  origin = `http://127.0.0.1:${port}`;
  stack = await startStack({ config: { publicUrl: origin } });
  await stack.app.rest.listen({ host: '127.0.0.1', port });
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
  });
});
after(async () => {
  await browser?.close();
  await stack?.close();
});

describe('/docs in Chromium, offline', { skip: !present }, () => {
  test('the reader authorizes with an API key, calls get user and sees the 200 answer, with no request off the origin', async () => {
    const context = await browser.newContext();
    const offOrigin: string[] = [];
    await context.route('**/*', async (route) => {
      if (new URL(route.request().url()).origin === origin) return route.continue();
      offOrigin.push(route.request().url());
      return route.abort('blockedbyclient');
    });
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error' || /Content Security Policy/i.test(message.text())) problems.push(message.text());
    });
    page.on('pageerror', (error) => problems.push(`uncaught: ${error.message}`));
    // WebSockets bypass HTTP routing: any attempt is recorded too.
    page.on('websocket', (socket) => offOrigin.push(socket.url()));
    const apiCalls: Request[] = [];
    page.on('request', (request) => {
      if (new URL(request.url()).pathname.startsWith('/v1/')) apiCalls.push(request);
    });

    const username = stack.emulator.manifest.users.public;
    const response = await page.goto(`${origin}/docs`);
    assert.equal(response?.status(), 200);
    await page.locator('#operations-users-user').waitFor();

    await page.click('.auth-wrapper button.authorize');
    await page.fill('.auth-container input', stack.key);
    await page.click('.auth-btn-wrapper button.authorize');
    await page.click('.auth-btn-wrapper button.btn-done');

    const operation = page.locator('#operations-users-user');
    await operation.locator('.opblock-summary').first().click();
    await operation.locator('tr[data-param-name="username"] input').fill(username);
    await operation.locator('button.execute').click();
    const status = operation.locator('.live-responses-table .response .response-col_status');
    await status.first().waitFor();
    assert.equal((await status.first().textContent())?.trim(), '200');
    const body = await operation.locator('.live-responses-table .response-col_description pre').first().textContent();
    const shown = JSON.parse(body ?? '');
    assert.equal(shown.data.type, 'Person');
    assert.equal(shown.data.preferredUsername, username);

    assert.equal(apiCalls.length, 1, 'one API call was made');
    assert.equal(new URL(apiCalls[0].url()).pathname, `/v1/platform/users/${username}`);
    assert.equal(await apiCalls[0].headerValue('authorization'), `Bearer ${stack.key}`);
    assert.deepEqual(offOrigin, [], 'no request left the service origin');
    assert.deepEqual(problems, [], 'no console errors and no Content-Security-Policy violations');
    await mkdir(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: `${ARTIFACTS}docs.png`, fullPage: true });
    await context.close();
  });
});
