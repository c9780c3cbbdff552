// The real impit session over loopback HTTP: the signed UA is the UA sent, msToken updates from
// Set-Cookie are sent on the next request, and the bootstrap cookies reach the platform.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createPlatformClient } from '../../src/upstream/client.ts';
import { resolveUpstreamConfig } from '../../src/upstream/config.ts';
import { verifyXBogus } from '../../src/upstream/signing/x-bogus.ts';

type Seen = { path: string; query: string; ua: string; cookie: string; referer: string };
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
    const at = call.query.lastIndexOf('&X-Bogus=');
    assert.ok(at > 0, 'X-Bogus is the last parameter');
    assert.equal(verifyXBogus(call.query.slice(at + 9), call.query.slice(0, at), call.ua), true, 'signed for the sent UA');
    assert.match(call.cookie, /ttwid=w1/);
    assert.equal(call.referer, `${origin}/`);
  }
  // The bootstrap set token1, the first API call's response set token2: each request sends the latest.
  assert.equal(new URLSearchParams(api[0].query).get('msToken'), 'token1');
  assert.equal(new URLSearchParams(api[1].query).get('msToken'), 'token2');
  await client.close();
});
