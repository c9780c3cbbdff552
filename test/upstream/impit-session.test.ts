// The real impit session over loopback HTTP: the sealed UA is the UA sent, msToken updates from
// Set-Cookie are sent on the next request, the bootstrap cookies reach the platform, and an API
// call carries the headers of the page's own fetch with one browser version throughout.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createPlatformClient } from '../../src/upstream/client.ts';
import { resolveUpstreamConfig } from '../../src/upstream/config.ts';
import { decodeXGnarly } from '../../src/upstream/signing/x-gnarly.ts';
import { md5Hex, utf8Bytes } from '../../src/upstream/signing/md5.ts';
import { BROWSER, CHROME_MAJOR } from '../../src/upstream/browser-version.ts';

type Seen = { path: string; query: string; ua: string; cookie: string; referer: string; headers: IncomingMessage['headers'] };
const seen: Seen[] = [];
let server: Server;
let origin: string;
let tokenNo = 0;

const userBody = JSON.stringify({ statusCode: 0, userInfo: { user: { id: '1', uniqueId: 'alice', secUid: 'S' } } });

function record(req: IncomingMessage): Seen {
  const url = new URL(req.url ?? '/', 'http://x');
  const entry = {
    path: url.pathname,
    query: url.search.slice(1),
    ua: String(req.headers['user-agent'] ?? ''),
    cookie: String(req.headers.cookie ?? ''),
    referer: String(req.headers.referer ?? ''),
    headers: req.headers,
  };
  seen.push(entry);
  return entry;
}

before(async () => {
  server = createServer((req, res) => {
    const entry = record(req);
    tokenNo += 1;
    const cookies = [`msToken=token${tokenNo}; Path=/`];
    if (entry.path === '/') cookies.push('tt_chain_token=chain-abc; Path=/', 'ttwid=w1; Path=/');
    res.setHeader('set-cookie', cookies);
    res.setHeader('content-type', entry.path === '/' ? 'text/html' : 'application/json');
    res.end(entry.path === '/' ? '<html></html>' : userBody);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
after(() => new Promise<void>((resolve) => server.close(() => resolve())));

test('requests are signed for the UA impit really sends and carry the newest msToken and the bootstrap cookies', async () => {
  const client = createPlatformClient({
    config: resolveUpstreamConfig({ webOrigin: origin, webcastOrigin: origin, identityCount: 1, identityRatePerSecond: 1_000 }),
  });
  const first = await client.getUser('alice');
  assert.equal(first.chainToken, 'chain-abc');
  await client.getUser('alice');
  const api = seen.filter((s) => s.path === '/api/user/detail/');
  assert.equal(api.length, 2);
  for (const call of api) {
    const at = call.query.lastIndexOf('&X-Bogus=1&X-Gnarly=');
    assert.ok(at > 0, 'X-Bogus=1 and X-Gnarly close the query');
    const fields = decodeXGnarly(call.query.slice(at + '&X-Bogus=1&X-Gnarly='.length));
    assert.equal(fields?.get(3), md5Hex(utf8Bytes(call.query.slice(0, at))), 'sealed over the query as sent');
    assert.equal(fields?.get(5), md5Hex(utf8Bytes(call.ua)), 'sealed for the sent UA');
    assert.equal(call.ua, BROWSER.userAgent);
    assert.match(String(call.headers['sec-ch-ua']), new RegExp(`v="${CHROME_MAJOR}"`));
    assert.equal(call.headers['sec-fetch-mode'], 'cors');
    assert.equal(call.headers['sec-fetch-dest'], 'empty');
    assert.equal(call.headers['sec-fetch-user'], undefined);
    assert.equal(call.headers['upgrade-insecure-requests'], undefined);
    assert.match(call.cookie, /ttwid=w1/);
    assert.equal(call.referer, `${origin}/@alice`);
  }
  const home = seen.find((s) => s.path === '/');
  assert.equal(home?.headers['sec-fetch-mode'], 'navigate');
  assert.equal(home?.ua, BROWSER.userAgent);
  // The bootstrap set token1, the first API call's response set token2: each request sends the latest.
  assert.equal(new URLSearchParams(api[0].query).get('msToken'), 'token1');
  assert.equal(new URLSearchParams(api[1].query).get('msToken'), 'token2');
  await client.close();
});
