import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { Impit } from 'impit';
import { isUtf8, readText } from './http-session.ts';

test('UTF-8 is what the charset says, or JSON without one (RFC 8259); anything else is not assumed', () => {
  for (const type of ['application/json; charset=utf-8', 'application/json', 'text/html; charset=UTF-8', 'application/problem+json', 'text/plain;charset="utf8"', 'application/json ; charset = utf-8']) {
    assert.equal(isUtf8(type), true, type);
  }
  for (const type of [null, 'text/html', 'text/plain', 'application/json; charset=iso-8859-1', 'text/html; charset=windows-1252', 'application/jsonp']) {
    assert.equal(isUtf8(type), false, String(type));
  }
});

test('a UTF-8 body decodes as Node decodes UTF-8; other charsets keep the client\'s own decoding', async () => {
  const text = '{"desc":"naïve 東京 🎵 \\u2028"}';
  const bytes = Buffer.from(text, 'utf8');
  const answer = (contentType: string, body: Buffer) => ({
    headers: new Headers({ 'content-type': contentType }),
    arrayBuffer: async () => body.buffer.slice(body.byteOffset, body.byteOffset + body.length) as ArrayBuffer,
    text: async () => 'decoded by the client',
  });
  assert.equal(await readText(answer('application/json; charset=utf-8', bytes)), text);
  // A broken sequence becomes U+FFFD, as in any WHATWG decoder, never an exception.
  assert.equal(await readText(answer('application/json', Buffer.from([0x7b, 0xff, 0x7d]))), '{\uFFFD}');
  assert.equal(await readText(answer('text/html; charset=windows-1252', bytes)), 'decoded by the client');
});

test("on impit's real responses it gives exactly what impit's text() gives", async () => {
  const body = Buffer.from(JSON.stringify({ items: Array.from({ length: 2000 }, (_, i) => ({ i, t: `vidéo ${i} 🎬 東京` })) }));
  const server = createServer((req, res) => {
    req.resume();
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': body.length });
    res.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const url = `http://127.0.0.1:${(server.address() as { port: number }).port}/`;
    const impit = new Impit({ browser: 'chrome', timeout: 5000 });
    const theirs = await (await impit.fetch(url)).text();
    const ours = await readText(await impit.fetch(url));
    assert.equal(ours, theirs);
    assert.equal(ours, body.toString('utf8'));
  } finally {
    server.close();
  }
});
