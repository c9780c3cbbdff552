// Video mapping paths the recorded samples do not cover: plain addresses, photo posts, tag dialect.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { RawItem } from '../upstream/raw.ts';
import { toVideo } from './to-video.ts';

const ctx = { webOrigin: 'https://www.tiktok.com', chainToken: 'tok' };
const base: RawItem = { id: '71', createTime: 1700000000, author: { id: '9', uniqueId: 'ann' } };

test('without bitrateInfo the play and download addresses become renditions, deduplicated', () => {
  const item: RawItem = { ...base, video: { playAddr: 'https://v.test/p', downloadAddr: 'https://v.test/d', width: 576, height: 1024, format: 'mp4', codecType: 'h264' } };
  const files = toVideo(item, ctx).attachment as Array<{ name: string; url: string[]; headers: Record<string, string> }>;
  assert.deepEqual(files.map((f) => [f.name, f.url[0]]), [['play', 'https://v.test/p'], ['download', 'https://v.test/d']]);
  assert.deepEqual(files[0].headers, { Cookie: 'tt_chain_token=tok', Referer: 'https://www.tiktok.com/' });
  const same = toVideo({ ...base, video: { playAddr: 'https://v.test/p', downloadAddr: 'https://v.test/p' } }, ctx);
  assert.equal(same.attachment?.length, 1);
});

test('media headers carry no Cookie when the identity has no chain token', () => {
  const item: RawItem = { ...base, video: { playAddr: 'https://v.test/p' } };
  const [file] = toVideo(item, { ...ctx, chainToken: undefined }).attachment as Array<{ headers: Record<string, string> }>;
  assert.deepEqual(file.headers, { Referer: 'https://www.tiktok.com/' });
});

test('a photo post lists its photos as Image attachments and uses the photo cover', () => {
  const item: RawItem = {
    ...base,
    imagePost: {
      images: [
        { imageURL: { urlList: ['https://i.test/1.jpg', 'https://i.test/1b.jpg'] }, imageWidth: 1080, imageHeight: 1440 },
        { imageURL: { urlList: ['https://i.test/2.jpg'] } },
      ],
      cover: { imageURL: { urlList: ['https://i.test/cover.jpg'] } },
    },
  };
  const video = toVideo(item, ctx);
  assert.deepEqual(video.attachment, [
    { type: 'Image', url: 'https://i.test/1.jpg', width: 1080, height: 1440 },
    { type: 'Image', url: 'https://i.test/2.jpg' },
  ]);
  assert.equal(video.image?.url, 'https://i.test/cover.jpg');
});

test('tag dialect marks paid partnerships sponsored and takes the location from the country when no poi', () => {
  const video = toVideo({ ...base, adAuthorization: true, locationCreated: 'US', textLanguage: 'en', desc: 'hi' }, ctx, 'tag');
  assert.equal(video.isSponsored, true);
  assert.deepEqual(video.location, { type: 'Place', name: 'US' });
  assert.equal(video.content, 'hi');
  assert.ok(!('summary' in video));
});

test('caption hashtags without a challenge become tags, with encoded hrefs and no duplicates', () => {
  const video = toVideo({
    ...base,
    challenges: [{ id: '5873', title: 'china' }],
    textExtra: [{ type: 1, hashtagName: 'China' }, { type: 1, hashtagName: '中国' }, { type: 0, userUniqueId: 'bob' }],
  }, ctx);
  assert.deepEqual(video.tag?.map((t) => [t.name, t.href, t.internalId]), [
    ['china', 'https://www.tiktok.com/tag/china', '5873'],
    ['中国', 'https://www.tiktok.com/tag/%E4%B8%AD%E5%9B%BD', undefined],
  ]);
});