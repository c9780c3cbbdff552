// Every REST operation answers 200 with the spec's envelope and shapes, against the emulator over HTTP.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { useStack } from '../helpers/stack.ts';

const AS = 'https://www.w3.org/ns/activitystreams#';
const TIMESTAMP = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

const ctx = useStack();

function assertEnvelope(json: any) {
  assert.deepEqual(Object.keys(json), ['data'], 'only "data" at the top level');
  assert.deepEqual(json.data['@context'], [AS, `${ctx.stack.publicUrl}/ns/social`]);
}

function assertPage(data: any, itemType: string, partOf: string) {
  assert.equal(data.type, 'OrderedCollectionPage');
  assert.equal(data.partOf, partOf);
  assert.ok(Number.isInteger(data.totalItems));
  assert.equal(data.itemCount, data.orderedItems.length);
  for (const item of data.orderedItems) assert.equal(item.type, itemType);
}

function assertVideo(video: any) {
  assert.equal(video.type, 'Video');
  assert.match(video.id, /^https?:\/\//);
  assert.match(video.published, TIMESTAMP);
  for (const field of ['viewCount', 'likeCount', 'commentCount', 'shareCount']) assert.ok(Number.isInteger(video[field]), field);
  assert.equal(video.attributedTo.type, 'Person');
  assert.equal(typeof video.internalId, 'string');
}

describe('200: every operation answers with the spec envelope', () => {
  it('user profile is a Person with exact integer counts', async () => {
    const res = await ctx.stack.get(`/v1/platform/users/${ctx.m.users.public}`);
    assert.equal(res.status, 200, res.body);
    assertEnvelope(res.json);
    const person = res.json.data;
    assert.equal(person.type, 'Person');
    assert.equal(person.preferredUsername, ctx.m.users.public);
    for (const field of ['followerCount', 'followingCount', 'likeCount', 'videoCount']) assert.ok(Number.isInteger(person[field]), field);
    assert.equal(typeof person.userId, 'string');
  });

  it('the @ form and the bare form of a username give the same answer', async () => {
    const bare = await ctx.stack.get(`/v1/platform/users/${ctx.m.users.public}`);
    const at = await ctx.stack.get(`/v1/platform/users/@${ctx.m.users.public}`);
    const encoded = await ctx.stack.get(`/v1/platform/users/%40${ctx.m.users.public}`);
    assert.equal(at.status, 200);
    assert.deepEqual(at.json, bare.json);
    assert.deepEqual(encoded.json, bare.json);
  });

  it('user videos page holds Video items with media headers', async () => {
    const res = await ctx.stack.get(`/v1/platform/users/${ctx.m.users.public}/videos?count=5`);
    assert.equal(res.status, 200, res.body);
    assertEnvelope(res.json);
    assertPage(res.json.data, 'Video', `${ctx.stack.publicUrl}/v1/platform/users/${ctx.m.users.public}/videos`);
    assert.equal(res.json.data.itemCount, 5);
    assert.equal(res.json.data.cursor, '0');
    const video = res.json.data.orderedItems.find((v: any) => v.attachment?.length > 0) ?? res.json.data.orderedItems[0];
    assertVideo(video);
    const media = video.attachment?.[0];
    if (media) {
      assert.ok(Array.isArray(media.url));
      assert.match(media.headers.Cookie, /^tt_chain_token=/);
      assert.ok(media.headers.Referer);
    }
  });

  for (const order of ['popular', 'oldest'] as const) {
    it(`user videos accept order=${order} and keep it in partOf and next`, async () => {
      const res = await ctx.stack.get(`/v1/platform/users/${ctx.m.users.manyVideos}/videos?count=3&order=${order}`);
      assert.equal(res.status, 200, res.body);
      assert.equal(res.json.data.partOf, `${ctx.stack.publicUrl}/v1/platform/users/${ctx.m.users.manyVideos}/videos?order=${order}`);
      assert.match(res.json.data.next, new RegExp(`order=${order}`));
    });
  }

  it('reposts, likes, collections and followers answer pages of their item types', async () => {
    const cases: [string, string, string][] = [
      [ctx.m.users.withReposts ?? ctx.m.users.public, 'reposts', 'Video'],
      [ctx.m.users.public, 'likes', 'Video'],
      [ctx.m.users.withPlaylists ?? ctx.m.users.public, 'collections', 'OrderedCollection'],
      [ctx.m.users.public, 'followers', 'Person'],
    ];
    for (const [user, what, type] of cases) {
      const res = await ctx.stack.get(`/v1/platform/users/${user}/${what}?count=3`);
      assert.equal(res.status, 200, `${what}: ${res.body}`);
      assertEnvelope(res.json);
      assertPage(res.json.data, type, `${ctx.stack.publicUrl}/v1/platform/users/${user}/${what}`);
    }
  });

  it('a video carries counts, author, audio and media files', async () => {
    const res = await ctx.stack.get(`/v1/platform/videos/${ctx.m.videos.withReplies.id}`);
    assert.equal(res.status, 200, res.body);
    assertEnvelope(res.json);
    assertVideo(res.json.data);
    assert.equal(res.json.data.internalId, ctx.m.videos.withReplies.id, 'ids beyond 2^53 stay exact strings');
  });

  it('comments and replies are Notes pointing at the video', async () => {
    const { id, commentId } = ctx.m.videos.withReplies;
    const comments = await ctx.stack.get(`/v1/platform/videos/${id}/comments?count=5`);
    assert.equal(comments.status, 200, comments.body);
    assertPage(comments.json.data, 'Note', `${ctx.stack.publicUrl}/v1/platform/videos/${id}/comments`);
    const replies = await ctx.stack.get(`/v1/platform/videos/${id}/comments/${commentId}/replies`);
    assert.equal(replies.status, 200, replies.body);
    assertPage(replies.json.data, 'Note', `${ctx.stack.publicUrl}/v1/platform/videos/${id}/comments/${commentId}/replies`);
    assert.ok(replies.json.data.orderedItems.length > 0);
    const video = await ctx.stack.get(`/v1/platform/videos/${id}`);
    for (const note of replies.json.data.orderedItems) assert.equal(note.inReplyTo, video.json.data.id);
  });

  it('a transcript is a Document by default and raw WebVTT on Accept: text/vtt or format=vtt', async () => {
    const { id, languages } = ctx.m.videos.withTranscripts;
    const doc = await ctx.stack.get(`/v1/platform/videos/${id}/transcripts/${languages[0]}`);
    assert.equal(doc.status, 200, doc.body);
    assertEnvelope(doc.json);
    assert.equal(doc.json.data.type, 'Document');
    assert.equal(doc.json.data.mediaType, 'text/vtt');
    assert.equal(doc.json.data.language, languages[0]);
    const video = await ctx.stack.get(`/v1/platform/videos/${id}`);
    assert.equal(doc.json.data.id, `${video.json.data.id}#transcript-${languages[0]}`, 'a transcript has its own id, under its video\'s');
    assert.match(doc.json.data.content, /^WEBVTT\r?\n\r?\n/);
    assert.match(doc.json.data.content, /\d\d:\d\d:\d\d\.\d{3} --> \d\d:\d\d:\d\d\.\d{3}/);
    assert.equal(doc.json.data.size, Buffer.byteLength(doc.json.data.content));
    const vtt = await ctx.stack.get(`/v1/platform/videos/${id}/transcripts/${languages[0]}`, { accept: 'text/vtt' });
    assert.equal(vtt.status, 200);
    assert.match(String(vtt.headers['content-type']), /^text\/vtt/);
    assert.equal(vtt.body, doc.json.data.content);
    const viaQuery = await ctx.stack.get(`/v1/platform/videos/${id}/transcripts/${languages[0]}?format=vtt`);
    assert.equal(viaQuery.body, doc.json.data.content);
  });

  it('a live user has a live Video with viewers and every stream quality; the tag answers on both paths', async () => {
    const live = await ctx.stack.get(`/v1/platform/users/${ctx.m.users.live}/live`);
    assert.equal(live.status, 200, live.body);
    assertEnvelope(live.json);
    assert.equal(live.json.data.type, 'Video');
    assert.equal(live.json.data.isLive, true);
    assert.ok(Number.isInteger(live.json.data.viewerCount) && live.json.data.viewerCount > 0);
    assert.equal(live.json.data.viewCount, live.json.data.viewerCount);
    const files = live.json.data.attachment;
    assert.deepEqual(
      files.map((f: any) => `${f.name} ${f.mediaType}`),
      ['origin', 'hd', 'sd', 'ld'].flatMap((q) => [`${q} video/x-flv`, `${q} application/vnd.apple.mpegurl`]),
    );
    for (const f of files) {
      assert.equal(f.type, 'Video');
      assert.match(f.url[0], f.mediaType === 'video/x-flv' ? /\.flv\?/ : /\/index\.m3u8\?/);
      assert.equal(f.codec, 'h264');
      for (const field of ['width', 'height', 'bitrate']) assert.ok(Number.isInteger(f[field]) && f[field] > 0, field);
    }
    const tag = await ctx.stack.get(`/v1/platform/tags/${ctx.m.tags.popular}?count=4`);
    assert.equal(tag.status, 200, tag.body);
    assertPage(tag.json.data, 'Video', `${ctx.stack.publicUrl}/v1/platform/tags/${ctx.m.tags.popular}/videos`);
    const item = tag.json.data.orderedItems[0];
    assert.equal(typeof item.entityId, 'string', 'tag dialect names the id entityId');
    assert.equal(item.internalId, undefined);
    const alias = await ctx.stack.get(`/v1/platform/tags/${ctx.m.tags.popular}/videos?count=4`);
    assert.deepEqual(alias.json, tag.json);
  });
});
