// The CDN's media files over real HTTP: deterministic bytes, Range, the 200 MiB file streamed on
// the fly, and the CDN rules (issued chain-token cookie, web Referer, unexpired signed link).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { request } from 'node:http';
import { startEmulator } from './server.ts';
import type { Emulator } from './server.ts';
import { createTestClient } from './test-client.ts';
import type { TestClient } from './test-client.ts';
import { createDataset } from './dataset/dataset.ts';
import { renditionFile } from './handlers/cdn.ts';
import { forEachMediaChunk, type MediaBytes } from './wire/media-bytes.ts';
import { GEARS } from './wire/urls.ts';

let em: Emulator;
let client: TestClient;
const referer = { referer: 'https://www.tiktok.com/' };

before(async () => {
  em = await startEmulator({ seed: 5 });
  client = await createTestClient(em.url);
});
after(() => em.close());

function expectedHash(file: MediaBytes, start = 0, end = file.size - 1): string {
  const hash = createHash('sha256');
  forEachMediaChunk(file, start, end, (chunk) => hash.update(chunk));
  return hash.digest('hex');
}

const sha256 = (bytes: ArrayBuffer) => createHash('sha256').update(Buffer.from(bytes)).digest('hex');

async function itemOf(id: string) {
  return (await client.api('/api/item/detail/', { itemId: id })).itemInfo.itemStruct;
}

describe('media bytes', () => {
  test('a rendition is exactly DataSize bytes, the generator\'s bytes, and ranges are slices of it', async () => {
    const id = em.manifest.videos.withTranscripts.id;
    const item = await itemOf(id);
    const gear = item.video.bitrateInfo[1];
    const url = gear.PlayAddr.UrlList[0].slice(em.url.length);
    const file = renditionFile(createDataset(5), id, GEARS.findIndex((g) => g.name === gear.GearName))!;
    const full = await client.get(url, { headers: referer });
    assert.equal(full.status, 200);
    assert.equal(full.headers.get('content-length'), String(gear.PlayAddr.DataSize));
    assert.equal(full.headers.get('accept-ranges'), 'bytes');
    assert.equal(sha256(await full.arrayBuffer()), expectedHash(file));
    const part = await client.get(url, { headers: { ...referer, range: 'bytes=1000-70999' } });
    assert.equal(part.status, 206);
    assert.equal(part.headers.get('content-range'), `bytes 1000-70999/${file.size}`);
    assert.equal(sha256(await part.arrayBuffer()), expectedHash(file, 1000, 70_999));
    const tail = await client.get(url, { headers: { ...referer, range: 'bytes=-10' } });
    assert.equal(tail.headers.get('content-range'), `bytes ${file.size - 10}-${file.size - 1}/${file.size}`);
    assert.equal(sha256(await tail.arrayBuffer()), expectedHash(file, file.size - 10));
    const beyond = await client.get(url, { headers: { ...referer, range: `bytes=${file.size}-` } });
    assert.equal(beyond.status, 416);
    assert.equal(beyond.headers.get('content-range'), `bytes */${file.size}`);
  });

  test('the large video\'s best rendition is 200 MiB, served by range without being stored', async () => {
    const { id, bytes } = em.manifest.videos.large;
    const item = await itemOf(id);
    const best = item.video.bitrateInfo[0];
    assert.equal(best.PlayAddr.DataSize, bytes);
    const url = best.PlayAddr.UrlList[0].slice(em.url.length);
    const head = await client.get(url, { method: 'HEAD', headers: referer });
    assert.equal(head.headers.get('content-length'), String(bytes));
    const start = bytes - 3 * 1024 * 1024;
    const end = bytes - 1000;
    const part = await client.get(url, { headers: { ...referer, range: `bytes=${start}-${end}` } });
    assert.equal(part.status, 206);
    const file = renditionFile(createDataset(5), id, 0)!;
    assert.equal(sha256(await part.arrayBuffer()), expectedHash(file, start, end));
  });

  test('a reader that goes away mid-file is counted as aborted, and nothing more is generated', async () => {
    const { id } = em.manifest.videos.large;
    const url = (await itemOf(id)).video.bitrateInfo[0].PlayAddr.UrlList[0];
    const before = em.mediaStats();
    const cookie = [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    await new Promise<void>((resolve, reject) => {
      const req = request(url, { headers: { ...referer, cookie } }, (res) => {
        let seen = 0;
        res.on('data', (chunk: Buffer) => {
          seen += chunk.length;
          if (seen > 1_000_000) req.destroy();
        });
        res.on('close', () => resolve());
      });
      req.on('error', () => resolve());
      req.on('close', () => resolve());
      req.end();
      setTimeout(() => reject(new Error('the download did not stop')), 20_000).unref();
    });
    while (em.mediaStats().aborted === before.aborted) await new Promise((r) => setTimeout(r, 10));
    const stats = em.mediaStats();
    assert.equal(stats.started - before.started, 1);
    assert.equal(stats.completed, before.completed);
    assert.ok(stats.bytesSent - before.bytesSent < 64 * 1024 * 1024, `generated ${stats.bytesSent - before.bytesSent} bytes for a reader that took 1 MB`);
  });
});

describe('CDN rules', () => {
  test('an edited expire or signature is refused; an expired link is refused', async () => {
    const item = await itemOf(em.manifest.videos.withTranscripts.id);
    const url = item.video.playAddr.slice(em.url.length);
    assert.equal((await client.get(url, { headers: { ...referer, range: 'bytes=0-9' } })).status, 206);
    const expire = Number(/[?&]expire=(\d+)/.exec(url)![1]);
    assert.equal((await client.get(url.replace(`expire=${expire}`, `expire=${expire + 3600}`), { headers: referer })).status, 403);
    assert.equal((await client.get(url.replace(/signature=[0-9a-f]+/, 'signature=0123'), { headers: referer })).status, 403);
    const control = await fetch(`${em.url}/__emulator/media`, { method: 'PUT', body: JSON.stringify({ urlTtlSeconds: 0 }) });
    assert.deepEqual(await control.json(), { urlTtlSeconds: 0 });
    try {
      const stale = (await itemOf(em.manifest.videos.withTranscripts.id)).video.playAddr.slice(em.url.length);
      assert.equal((await client.get(stale, { headers: referer })).status, 403);
    } finally {
      em.setMediaUrlTtl(172_800);
    }
    assert.equal((await fetch(`${em.url}/__emulator/media`, { method: 'PUT', body: '{"urlTtlSeconds":-1}' })).status, 400);
  });
});
