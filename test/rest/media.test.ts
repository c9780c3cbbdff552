// Media downloads through REST against the emulator's CDN: bytes equal to the emulator's generator,
// Range and 416, the video operation's problems, keys, the byte budget, signed links, and the
// refresh of links the CDN no longer honours.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { createDataset } from '../../emulator/dataset/dataset.ts';
import { renditionFile, soundFile } from '../../emulator/handlers/cdn.ts';
import { forEachMediaChunk, type MediaBytes } from '../../emulator/wire/media-bytes.ts';
import { decodeFileKey, GEARS } from '../../emulator/wire/urls.ts';
import { createStoredCursorSigner } from '../../src/operations/cursor-keys.ts';
import { createMediaLinks } from '../../src/media/links.ts';
import SwaggerParser from '@apidevtools/swagger-parser';
import { startStack, useStack } from '../helpers/stack.ts';

const ctx = useStack();
const ds = createDataset(1);

function expectedHash(file: MediaBytes, start = 0, end = file.size - 1): string {
  const hash = createHash('sha256');
  forEachMediaChunk(file, start, end, (chunk) => hash.update(chunk));
  return hash.digest('hex');
}

async function download(path: string, headers: Record<string, string> = {}, withKey = true) {
  const response = await ctx.stack.app.rest.inject({
    method: 'GET',
    url: path,
    headers: withKey ? { authorization: `Bearer ${ctx.stack.key}`, ...headers } : headers,
  });
  return { status: response.statusCode, headers: response.headers, raw: response.rawPayload, json: () => JSON.parse(response.body) };
}

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
const gearIndex = (name: string) => GEARS.findIndex((g) => g.name === name);
const mediaPath = (id: string, query = '') => `/v1/platform/videos/${id}/media${query}`;

describe('200/206: bytes are the CDN file\'s', () => {
  it('the default format is the best rendition (largest frame) and its bytes are the emulator\'s', async () => {
    const id = ctx.m.videos.withTranscripts.id;
    const res = await download(mediaPath(id));
    assert.equal(res.status, 200, res.raw.toString('utf8', 0, 300));
    const file = renditionFile(ds, id, gearIndex('adapt_lowest_1080_1'))!;
    assert.equal(res.headers['content-length'], String(file.size));
    assert.equal(res.headers['content-type'], 'video/mp4');
    assert.equal(res.headers['accept-ranges'], 'bytes');
    assert.match(String(res.headers['content-disposition']), new RegExp(`^inline; filename="${id}-adapt_lowest_1080_1\\.mp4"$`));
    assert.equal(sha256(res.raw), expectedHash(file));
  });

  it('a named rendition and a range of it match the emulator\'s bytes (206, Content-Range)', async () => {
    const id = ctx.m.videos.withTranscripts.id;
    const file = renditionFile(ds, id, gearIndex('normal_540_0'))!;
    const res = await download(mediaPath(id, '?format=normal_540_0'), { range: 'bytes=100000-299999' });
    assert.equal(res.status, 206);
    assert.equal(res.headers['content-range'], `bytes 100000-299999/${file.size}`);
    assert.equal(res.headers['content-length'], '200000');
    assert.equal(sha256(res.raw), expectedHash(file, 100_000, 299_999));
    const suffix = await download(mediaPath(id, '?format=normal_540_0'), { range: 'bytes=-500' });
    assert.equal(suffix.status, 206);
    assert.equal(sha256(suffix.raw), expectedHash(file, file.size - 500));
  });

  it('h264 picks the best H.264 rendition; audio and cover are served with their types', async () => {
    const id = ctx.m.videos.withTranscripts.id;
    const video = (await ctx.stack.get(`/v1/platform/videos/${id}`)).json.data;
    const h264 = await download(mediaPath(id, '?format=h264'), { range: 'bytes=0-99' });
    assert.equal(h264.status, 206);
    assert.equal(sha256(h264.raw), expectedHash(renditionFile(ds, id, gearIndex('normal_540_0'))!, 0, 99));
    const audio = await download(mediaPath(id, '?format=audio'));
    assert.equal(audio.status, 200);
    assert.equal(audio.headers['content-type'], 'audio/mpeg');
    const musicKey = decodeFileKey(new URL(video.audio.url).pathname.split('/').filter(Boolean).pop()!)!;
    assert.equal(sha256(audio.raw), expectedHash(soundFile(musicKey.id)));
    const cover = await download(mediaPath(id, '?format=cover'));
    assert.equal(cover.status, 200);
    assert.equal(cover.headers['content-type'], 'image/jpeg');
    assert.equal(cover.raw.subarray(0, 2).toString('hex'), 'ffd8');
  });

  it('HEAD answers the headers of the file without its body', async () => {
    const id = ctx.m.videos.withTranscripts.id;
    const res = await ctx.stack.app.rest.inject({ method: 'HEAD', url: mediaPath(id), headers: { authorization: `Bearer ${ctx.stack.key}` } });
    assert.equal(res.statusCode, 200);
    assert.equal(res.headers['content-length'], String(renditionFile(ds, id, 0)!.size));
    assert.equal(res.rawPayload.length, 0);
  });

  it('when the CDN refuses one URL of a rendition (expired), its alternate URL serves that same rendition', async () => {
    const id = ctx.m.videos.pinned;
    ctx.stack.emulator.setMediaUrlTtl(0);
    try {
      assert.equal((await ctx.stack.get(`/v1/platform/videos/${id}`)).status, 200, 'the cached video now holds expired links');
    } finally {
      ctx.stack.emulator.setMediaUrlTtl(172_800);
    }
    const res = await download(mediaPath(id, '?format=adapt_lower_720_1'), { range: 'bytes=0-1023' });
    assert.equal(res.status, 206);
    assert.equal(sha256(res.raw), expectedHash(renditionFile(ds, id, gearIndex('adapt_lower_720_1'))!, 0, 1023));
  });

  it('a file whose only link the CDN no longer honours is fetched again with the video refreshed from the platform', async () => {
    const id = ctx.m.videos.withReplies.id;
    ctx.stack.emulator.setMediaUrlTtl(0);
    try {
      assert.equal((await ctx.stack.get(`/v1/platform/videos/${id}`)).status, 200, 'the cached video now holds expired links');
    } finally {
      ctx.stack.emulator.setMediaUrlTtl(172_800);
    }
    const detailsBefore = ctx.stack.emulator.stats()['/api/item/detail/'] ?? 0;
    const res = await download(mediaPath(id, '?format=audio'));
    assert.equal(res.status, 200, res.raw.toString('utf8', 0, 300));
    assert.equal(res.headers['content-length'], '240000');
    assert.equal(ctx.stack.emulator.stats()['/api/item/detail/'], detailsBefore + 1, 'one platform request renewed the links');
  });
});

describe('400/404/416: what cannot be served', () => {
  it('an unsatisfiable range is 416 with the file size; a malformed one gets the whole file', async () => {
    const id = ctx.m.videos.withTranscripts.id;
    const size = renditionFile(ds, id, 0)!.size;
    const res = await download(mediaPath(id), { range: `bytes=${size}-` });
    assert.equal(res.status, 416);
    assert.match(String(res.headers['content-type']), /^application\/problem\+json/);
    assert.equal(res.headers['content-range'], `bytes */${size}`);
    assert.equal(res.json().code, 'range_not_satisfiable');
    const whole = await download(mediaPath(id), { range: 'bytes=9-3' });
    assert.equal(whole.status, 200);
    assert.equal(whole.raw.length, size);
  });

  it('an unknown format is a 400 naming the formats the video has; bad parameters are 400', async () => {
    const id = ctx.m.videos.withTranscripts.id;
    const res = await download(mediaPath(id, '?format=8k'));
    assert.equal(res.status, 400);
    const problem = res.json();
    assert.equal(problem.code, 'invalid_request');
    assert.ok(problem.formats.includes('best') && problem.formats.includes('audio') && problem.formats.includes('normal_540_0'), problem.formats);
    assert.equal((await download(mediaPath(id, '?format=a%20b'))).status, 400);
    assert.equal((await download(mediaPath(id, '?quality=hd'))).json().code, 'invalid_request');
    assert.equal((await download(mediaPath('abc'))).status, 400);
  });

  it('a private, removed or geo-blocked video answers exactly the problem of the video operation', async () => {
    for (const id of [ctx.m.videos.private, ctx.m.videos.deleted, ctx.m.videos.geoBlocked, '7000000000000000001']) {
      const video = await ctx.stack.get(`/v1/platform/videos/${id}`);
      const media = await download(mediaPath(id));
      assert.ok(video.status >= 400, `${id}: ${video.status}`);
      assert.equal(media.status, video.status, id);
      assert.equal(media.json().code, video.json.code, id);
      const link = await ctx.stack.app.rest.inject({ method: 'POST', url: `/v1/platform/videos/${id}/media-links`, headers: { authorization: `Bearer ${ctx.stack.key}` } });
      assert.equal(JSON.parse(link.body).code, video.json.code, `media-links ${id}`);
    }
  });

  it('a photo post has no video file (404 no_media) but has its photos and cover', async () => {
    const id = ctx.m.videos.photo;
    const res = await download(mediaPath(id));
    assert.equal(res.status, 404);
    assert.equal(res.json().code, 'no_media');
    assert.ok(res.json().formats.includes('photo-1'));
    assert.equal((await download(mediaPath(id, '?format=photo-1'))).status, 200);
  });
});

describe('401/403: keys and signed links', () => {
  it('no key, an unknown key and a revoked key are 401', async () => {
    const id = ctx.m.videos.withTranscripts.id;
    assert.equal((await download(mediaPath(id), {}, false)).status, 401);
    assert.equal((await download(mediaPath(id), { authorization: 'Bearer rly_notakeyatallnotakeyatallnotakeyatallnotakey' }, false)).status, 401);
    const { key } = await ctx.stack.app.services.keys.create({ name: 'revoked' });
    await ctx.stack.app.services.keys.revoke(key.slice(0, 12));
    const revoked = await download(mediaPath(id), { authorization: `Bearer ${key}` }, false);
    assert.equal(revoked.status, 401);
    assert.equal(revoked.json().code, 'unauthorized');
  });

  it('a signed link downloads without a key; an altered one, or one used for another format, is 403 invalid_link', async () => {
    const id = ctx.m.videos.withTranscripts.id;
    const created = await ctx.stack.app.rest.inject({
      method: 'POST',
      url: `/v1/platform/videos/${id}/media-links`,
      headers: { authorization: `Bearer ${ctx.stack.key}`, 'content-type': 'application/json' },
      payload: { format: 'normal_540_0', ttlSeconds: 600 },
    });
    assert.equal(created.statusCode, 200, created.body);
    const link = JSON.parse(created.body).data;
    assert.equal(link.type, 'Link');
    assert.equal(link.mediaType, 'video/mp4');
    const expiresInMs = Date.parse(link.expires) - Date.now();
    assert.ok(expiresInMs > 590_000 && expiresInMs <= 601_000, String(expiresInMs));
    const url = new URL(link.href);
    assert.equal(url.origin, ctx.stack.publicUrl);
    const file = renditionFile(ds, id, gearIndex('normal_540_0'))!;
    const res = await download(url.pathname + url.search, {}, false);
    assert.equal(res.status, 200);
    assert.equal(res.headers['cross-origin-resource-policy'], 'cross-origin');
    assert.equal(sha256(res.raw), expectedHash(file));
    const token = url.searchParams.get('link')!;
    const altered = token.slice(0, 5) + (token[5] === 'A' ? 'B' : 'A') + token.slice(6);
    for (const query of [`?format=normal_540_0&link=${altered}`, `?format=best&link=${token}`, `?link=${token}`]) {
      const refused = await download(mediaPath(id, query), {}, false);
      assert.equal(refused.status, 403, query);
      assert.equal(refused.json().code, 'invalid_link', query);
    }
    const otherVideo = await download(mediaPath(ctx.m.videos.pinned, `?format=normal_540_0&link=${token}`), {}, false);
    assert.equal(otherVideo.json().code, 'invalid_link');
  });

  it('an expired link is 403 link_expired; a lifetime over the configured one is 400', async () => {
    const id = ctx.m.videos.withTranscripts.id;
    const signer = await createStoredCursorSigner(ctx.stack.app.services.store);
    try {
      const twoHoursAgo = { now: () => Date.now() - 2 * 3600_000 };
      const old = createMediaLinks({ signer, publicUrl: ctx.stack.publicUrl, clock: twoHoursAgo }).issue({ videoId: id, format: 'best', keyId: 'k', ttlSeconds: 3600 });
      const url = new URL(old.href);
      const res = await download(url.pathname + url.search, {}, false);
      assert.equal(res.status, 403);
      assert.equal(res.json().code, 'link_expired');
    } finally {
      signer.close();
    }
    const tooLong = await ctx.stack.app.rest.inject({
      method: 'POST',
      url: `/v1/platform/videos/${id}/media-links`,
      headers: { authorization: `Bearer ${ctx.stack.key}`, 'content-type': 'application/json' },
      payload: { ttlSeconds: 86_401 },
    });
    assert.equal(tooLong.statusCode, 400);
    const noKey = await ctx.stack.app.rest.inject({ method: 'POST', url: `/v1/platform/videos/${id}/media-links` });
    assert.equal(noKey.statusCode, 401);
    const wrongMethod = await ctx.stack.app.rest.inject({ method: 'DELETE', url: mediaPath(id), headers: { authorization: `Bearer ${ctx.stack.key}` } });
    assert.equal(wrongMethod.statusCode, 405);
    assert.equal(wrongMethod.headers.allow, 'GET, HEAD');
  });
});

describe('429: the per-key byte budget', () => {
  it('a download over the budget is refused before any byte, costs nothing, and names what is left', async () => {
    const stack = await startStack({ emulatorInstance: ctx.stack.emulator, config: { mediaBytesPerHour: '3000000' } });
    try {
      const id = ctx.m.videos.withTranscripts.id;
      const size = renditionFile(ds, id, 0)!.size;
      assert.ok(size > 3_000_000, `the best rendition (${size} bytes) exceeds the budget`);
      const get = (query: string, headers: Record<string, string> = {}) =>
        stack.app.rest.inject({ method: 'GET', url: mediaPath(id, query), headers: { authorization: `Bearer ${stack.key}`, ...headers } });
      const refused = await get('');
      assert.equal(refused.statusCode, 429);
      const problem = JSON.parse(refused.body);
      assert.equal(problem.code, 'rate_limited');
      assert.equal(problem.budget, 'media-bytes');
      assert.deepEqual([problem.limitBytes, problem.remainingBytes, problem.requestedBytes], [3_000_000, 3_000_000, size]);
      assert.ok(Number(refused.headers['retry-after']) > 0);
      const part = await get('', { range: 'bytes=0-1999999' });
      assert.equal(part.statusCode, 206);
      assert.match(String(part.headers.ratelimit), /"media-bytes";r=1000000;t=\d+/);
      const more = await get('', { range: 'bytes=2000000-3999999' });
      assert.equal(more.statusCode, 429);
      assert.equal(JSON.parse(more.body).remainingBytes, 1_000_000);
      // Another key has its own budget.
      const { key } = await stack.app.services.keys.create({ name: 'other' });
      const other = await stack.app.rest.inject({ method: 'GET', url: mediaPath(id), headers: { authorization: `Bearer ${key}`, range: 'bytes=0-1999999' } });
      assert.equal(other.statusCode, 206);
    } finally {
      await stack.close();
    }
  });
});

describe('OpenAPI', () => {
  it('documents both media routes, with their problems, in a valid document', async () => {
    const doc = JSON.parse((await ctx.stack.app.rest.inject('/openapi.json')).body);
    await SwaggerParser.validate(structuredClone(doc));
    const media = doc.paths['/v1/platform/videos/{videoId}/media'].get;
    assert.equal(media.operationId, 'videoMedia');
    assert.match(media.responses['416'].description, /range_not_satisfiable/);
    assert.match(media.responses['403'].description, /invalid_link/);
    assert.equal(doc.paths['/v1/platform/videos/{videoId}/media-links'].post.operationId, 'videoMediaLink');
  });
});
