import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isAppError } from '../errors.ts';
import type { Video } from '../activitystreams/types.ts';
import { chooseMedia, formatsOf } from './formats.ts';

const headers = { Referer: 'https://www.tiktok.com/' };
const file = (name: string, codec: string, width: number, height: number, bitrate: number) =>
  ({ type: 'Video' as const, name, url: [`https://cdn.example/${name}`, `https://alt.example/${name}`], mediaType: 'video/mp4', codec, width, height, bitrate, headers: { Cookie: 'tt_chain_token=x', ...headers } });

const video = {
  type: 'Video',
  id: 'https://www.tiktok.com/@a/video/1',
  url: 'https://www.tiktok.com/@a/video/1',
  attachment: [file('normal_540_0', 'h264', 576, 1024, 500), file('adapt_lowest_1080_1', 'h265_hvc1', 1080, 1920, 900), file('lowest_540_0', 'h264', 576, 1024, 200), file('download', 'h264', 2160, 3840, 9000)],
  audio: { type: 'Audio', id: 'https://www.tiktok.com/music/x-1', url: 'https://cdn.example/sound', mediaType: 'audio/mpeg' },
  image: { type: 'Image', url: 'https://img.example/cover.jpeg' },
} as unknown as Video;

const codeOf = (run: () => unknown) => {
  try {
    run();
    return 'ok';
  } catch (error) {
    return isAppError(error) ? error.code : 'thrown';
  }
};

test('best is the largest watermark-free frame; h264 the best H.264 one; names, audio and cover resolve', () => {
  assert.equal(chooseMedia(video, 'best', headers).name, 'adapt_lowest_1080_1');
  assert.equal(chooseMedia(video, 'h264', headers).name, 'normal_540_0');
  assert.deepEqual(chooseMedia(video, 'lowest_540_0', headers).urls, ['https://cdn.example/lowest_540_0', 'https://alt.example/lowest_540_0']);
  assert.equal(chooseMedia(video, 'download', headers).name, 'download', 'the watermarked file is still there by name');
  const audio = chooseMedia(video, 'audio', headers);
  assert.deepEqual([audio.kind, audio.urls, audio.mediaType, audio.headers], ['audio', ['https://cdn.example/sound'], 'audio/mpeg', headers]);
  assert.equal(chooseMedia(video, 'cover', headers).kind, 'image');
  assert.deepEqual(formatsOf(video, headers), ['best', 'h264', 'normal_540_0', 'adapt_lowest_1080_1', 'lowest_540_0', 'download', 'audio', 'cover']);
});

test('an unknown name is invalid_request; what a video lacks is no_media', () => {
  assert.equal(codeOf(() => chooseMedia(video, 'ultra', headers)), 'invalid_request');
  const photo = { ...video, attachment: [{ type: 'Image', url: 'https://img.example/p1.jpeg' }], audio: { type: 'Audio', id: 'p', url: 'p' } } as unknown as Video;
  assert.equal(codeOf(() => chooseMedia(photo, 'best', headers)), 'no_media');
  assert.equal(codeOf(() => chooseMedia(photo, 'audio', headers)), 'no_media', 'a sound page is not a file');
  assert.equal(chooseMedia(photo, 'photo-1', headers).urls[0], 'https://img.example/p1.jpeg');
});
