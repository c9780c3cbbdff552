// Content negotiation on the REST API through the real service: JSON, JSON-LD and ActivityStreams
// JSON share the stored bytes under their own Content-Type and ETag; anything else is a 406.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { useStack } from '../helpers/stack.ts';

const ctx = useStack();
const AS2_LD = 'application/ld+json; profile="https://www.w3.org/ns/activitystreams"';

describe('406 not_acceptable', () => {
  it('an Accept the API cannot answer is a 406 problem naming what is available, before any platform request', async () => {
    const path = `/v1/platform/videos/${ctx.m.videos.withReplies.id}/comments?count=3`;
    const before = ctx.stack.emulator.stats() as Record<string, number>;
    const res = await ctx.stack.get(path, { accept: 'application/xml' });
    assert.equal(res.status, 406);
    assert.match(String(res.headers['content-type']), /^application\/problem\+json/);
    assert.equal(res.json.code, 'not_acceptable');
    assert.equal(res.json.status, 406);
    assert.deepEqual(res.json.available, ['application/json; charset=utf-8', AS2_LD, 'application/activity+json']);
    assert.deepEqual(ctx.stack.emulator.stats(), before, 'no platform request was made');
  });

  it('q=0 on the only type asked for, and text/vtt outside transcripts, are refused too', async () => {
    const path = `/v1/platform/users/${ctx.m.users.public}`;
    assert.equal((await ctx.stack.get(path, { accept: 'application/json;q=0' })).status, 406);
    assert.equal((await ctx.stack.get(path, { accept: 'text/vtt' })).status, 406);
  });

  it('errors stay problem+json whatever the Accept', async () => {
    const res = await ctx.stack.get('/v1/platform/users/no.such.user.0000', { accept: 'application/activity+json' });
    assert.equal(res.status, 404);
    assert.match(String(res.headers['content-type']), /^application\/problem\+json/);
    assert.equal(res.json.code, 'not_found');
  });
});

describe('the JSON family', () => {
  it('JSON, JSON-LD and ActivityStreams JSON carry the same bytes under their own Content-Type and ETag', async () => {
    const path = `/v1/platform/videos/${ctx.m.videos.withReplies.id}`;
    const json = await ctx.stack.get(path);
    const ld = await ctx.stack.get(path, { accept: 'application/ld+json' });
    const as = await ctx.stack.get(path, { accept: 'application/activity+json' });
    const any = await ctx.stack.get(path, { accept: '*/*' });
    for (const res of [json, ld, as, any]) assert.equal(res.status, 200, res.body);
    assert.equal(json.headers['content-type'], 'application/json; charset=utf-8');
    assert.equal(any.headers['content-type'], 'application/json; charset=utf-8');
    assert.equal(ld.headers['content-type'], AS2_LD);
    assert.equal(as.headers['content-type'], 'application/activity+json');
    assert.equal(ld.body, json.body);
    assert.equal(as.body, json.body);
    assert.match(String(ld.headers['cache-status']), /hit/, 'served from the cache entry the JSON answer stored');
    const etags = new Set([json.headers.etag, ld.headers.etag, as.headers.etag]);
    assert.equal(etags.size, 3, 'one validator per representation');
    assert.equal(any.headers.etag, json.headers.etag);
    assert.equal(ld.headers.vary, 'Authorization, Accept');
  });

  it('q-values choose among them', async () => {
    const path = `/v1/platform/users/${ctx.m.users.public}`;
    const res = await ctx.stack.get(path, { accept: 'application/xml, application/json;q=0.4, application/activity+json;q=0.6' });
    assert.equal(res.status, 200);
    assert.equal(res.headers['content-type'], 'application/activity+json');
  });

  it('If-None-Match gets 304 with the ETag of the negotiated representation only', async () => {
    const path = `/v1/platform/users/${ctx.m.users.public}?projection_preset=minimal`;
    const ld = await ctx.stack.get(path, { accept: 'application/ld+json' });
    const json = await ctx.stack.get(path);
    assert.match(String(ld.headers.etag), /-minimal-ld"$/);
    assert.equal((await ctx.stack.get(path, { accept: 'application/ld+json', 'if-none-match': String(ld.headers.etag) })).status, 304);
    assert.equal((await ctx.stack.get(path, { 'if-none-match': String(json.headers.etag) })).status, 304);
    const other = await ctx.stack.get(path, { accept: 'application/ld+json', 'if-none-match': String(json.headers.etag) });
    assert.equal(other.status, 200, "the JSON validator does not validate the JSON-LD representation");
    assert.equal(other.body, json.body);
  });
});

describe('transcripts', () => {
  it('q-values choose between the Document and raw WebVTT, and each has its own ETag', async () => {
    const { id, languages } = ctx.m.videos.withTranscripts;
    const path = `/v1/platform/videos/${id}/transcripts/${languages[0]}`;
    const json = await ctx.stack.get(path, { accept: 'text/vtt;q=0.5, application/json' });
    assert.equal(json.status, 200, json.body);
    assert.equal(json.headers['content-type'], 'application/json; charset=utf-8');
    const vtt = await ctx.stack.get(path, { accept: 'application/json;q=0.5, text/vtt' });
    assert.equal(vtt.headers['content-type'], 'text/vtt; charset=utf-8');
    assert.match(vtt.body, /^WEBVTT/);
    assert.notEqual(vtt.headers.etag, json.headers.etag);
    assert.equal((await ctx.stack.get(path, { accept: 'text/vtt', 'if-none-match': String(json.headers.etag) })).status, 200);
    assert.equal((await ctx.stack.get(path, { accept: 'text/vtt', 'if-none-match': String(vtt.headers.etag) })).status, 304);
    assert.equal((await ctx.stack.get(`${path}?format=json`, { accept: 'text/vtt' })).headers['content-type'], 'application/json; charset=utf-8', 'format=json wins over Accept');
    assert.equal((await ctx.stack.get(path, { accept: 'application/xml' })).status, 406);
  });
});
