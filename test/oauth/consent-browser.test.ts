// The consent page in a real browser (Debian's Chromium through playwright-core): sign in with an
// API key and approve, deny, a wrong key, and a forged form (CSRF). Saves test-artifacts/consent.png.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { createHash, randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { startHarness, type Harness } from '../mcp/harness.ts';

const CHROMIUM = '/usr/bin/chromium';
const ARTIFACTS = fileURLToPath(new URL('../../test-artifacts/', import.meta.url));
const REDIRECT = 'http://127.0.0.1:9/callback';
const present = existsSync(CHROMIUM);
if (!present && process.env.CI === 'true') throw new Error(`${CHROMIUM} is missing: the consent browser test cannot run under CI`);
if (!present) console.warn(`\n*** SKIPPING the consent browser test: ${CHROMIUM} is absent (apt-get install -y chromium) ***\n`);

let h: Harness;
let browser: Browser;

before(async () => {
  if (!present) return;
  h = await startHarness();
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
  });
});
after(async () => {
  await browser?.close();
  await h?.close();
});

async function authorizationUrl(clientName: string): Promise<string> {
  const res = await fetch(`${h.url}/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ client_name: clientName, redirect_uris: [REDIRECT], token_endpoint_auth_method: 'none' }),
  });
  const { client_id } = (await res.json()) as { client_id: string };
  const challenge = createHash('sha256').update(randomBytes(32).toString('base64url')).digest('base64url');
  const params = { response_type: 'code', client_id, redirect_uri: REDIRECT, code_challenge: challenge, code_challenge_method: 'S256', state: 'browser-state', resource: h.url };
  return `${h.url}/authorize?${new URLSearchParams(params)}`;
}

/** Submits the form and returns the URL the browser is sent to (the callback is never loaded). */
async function submitAndCatchRedirect(page: Page, button: string): Promise<URL> {
  const redirected = new Promise<URL>((resolve) => {
    void page.route('http://127.0.0.1:9/**', async (route) => {
      resolve(new URL(route.request().url()));
      await route.fulfill({ status: 200, contentType: 'text/plain', body: 'callback reached' });
    });
  });
  await page.click(button);
  return redirected;
}

describe('consent page in Chromium', { skip: !present }, () => {
  test('the user signs in with an API key, sees the client and redirect host, approves, and the code comes back', async () => {
    const page = await browser.newPage();
    await page.goto(await authorizationUrl('Claude'));
    assert.equal(await page.textContent('#client-name'), 'Claude');
    assert.equal(await page.textContent('#redirect-host'), '127.0.0.1:9');
    const cookies = await page.context().cookies();
    assert.ok(cookies.some((c) => c.name === '__Host-reelay_csrf' && c.secure && c.httpOnly), 'CSRF cookie stored by the browser');
    await mkdir(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: `${ARTIFACTS}consent.png`, fullPage: true });
    await page.fill('#api_key', h.key);
    const back = await submitAndCatchRedirect(page, '#approve');
    assert.ok(back.searchParams.get('code'));
    assert.equal(back.searchParams.get('state'), 'browser-state');
    assert.equal(back.searchParams.get('iss'), h.url);
    await page.close();
  });

  test('deny sends the browser back with access_denied', async () => {
    const page = await browser.newPage();
    await page.goto(await authorizationUrl('Cursor'));
    const back = await submitAndCatchRedirect(page, '#deny');
    assert.equal(back.searchParams.get('error'), 'access_denied');
    assert.equal(back.searchParams.get('iss'), h.url);
    await page.close();
  });

  test('a wrong API key keeps the user on the page with an error', async () => {
    const page = await browser.newPage();
    await page.goto(await authorizationUrl('VS Code'));
    await page.fill('#api_key', `rly_${'C'.repeat(43)}`);
    await Promise.all([page.waitForLoadState('load'), page.click('#approve')]);
    assert.match((await page.textContent('[role=alert]')) ?? '', /not valid/);
    await page.close();
  });

  test('a form whose CSRF token was tampered with is refused', async () => {
    const page = await browser.newPage();
    await page.goto(await authorizationUrl('ChatGPT'));
    await page.fill('#api_key', h.key);
    await page.$eval('input[name=csrf_token]', (input) => ((input as unknown as { value: string }).value = 'forged'));
    const [response] = await Promise.all([page.waitForResponse((r) => r.request().method() === 'POST'), page.click('#approve')]);
    assert.equal(response.status(), 403);
    assert.match((await page.textContent('h1')) ?? '', /Form expired/);
    await page.close();
  });

  test('the page cannot be framed', async () => {
    const page = await browser.newPage();
    const response = await page.goto(await authorizationUrl('Framer'));
    assert.match(response!.headers()['content-security-policy'], /frame-ancestors 'none'/);
    assert.equal(response!.headers()['x-frame-options'], 'DENY');
    await page.close();
  });
});
