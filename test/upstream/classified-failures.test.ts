// Each platform failure the emulator can produce surfaces as the right AppError code.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { AppError } from '../../src/errors.ts';
import { clientFor, skipWithoutEmulator, startEmulator, type Emulator } from './emulator-harness.ts';

const skip = skipWithoutEmulator();
const page = { cursor: '0', count: 30 };
const code = (expected: string) => (e: AppError) => {
  assert.equal(e.code, expected);
  return true;
};

describe('classified failures against the emulator', { skip }, () => {
  let emulator: Emulator;
  let client: ReturnType<typeof clientFor>['client'];
  const secUidOf = async (name: string) => (await client.getUser(name)).data.user.secUid as string;

  before(async () => {
    emulator = await startEmulator();
    client = clientFor(emulator).client;
  });
  after(async () => {
    await client?.close();
    await emulator?.close();
  });

  test('a deleted video is not_found', async () => {
    await assert.rejects(client.getVideo(emulator.manifest.videos.deleted), code('not_found'));
  });

  test('an unknown user is not_found on the profile and on the live lookup', async () => {
    await assert.rejects(client.getUser('no_such_user_zz_000'), code('not_found'));
    await assert.rejects(client.getLiveRoom('no_such_user_zz_000'), code('not_found'));
  });

  test('a banned user is not_found', async () => {
    await assert.rejects(client.getUser(emulator.manifest.users.banned as string), code('not_found'));
  });

  test('the lists of a private account are private_account', async () => {
    const secUid = await secUidOf(emulator.manifest.users.private);
    await assert.rejects(client.getUserPosts(secUid, 'newest', page), code('private_account'));
  });

  test('hidden likes and hidden followers are private_content', async () => {
    await assert.rejects(client.getUserLikes(await secUidOf(emulator.manifest.users.hiddenLikes), page), code('private_content'));
    await assert.rejects(
      client.getUserFollowers(await secUidOf(emulator.manifest.users.hiddenFollowers as string), page),
      code('private_content'),
    );
  });

  test('a private video is private_content and a geo-blocked one geo_blocked', async () => {
    await assert.rejects(client.getVideo(emulator.manifest.videos.private as string), code('private_content'));
    await assert.rejects(client.getVideo(emulator.manifest.videos.geoBlocked as string), code('geo_blocked'));
  });

  test('an unknown tag is not_found', async () => {
    await assert.rejects(client.getTag('no_such_tag_zz_000'), code('not_found'));
  });
});
