// Operation 7: the live stream a user is broadcasting now; 404 not_live otherwise.
import { z } from 'zod';
import { toLive, withContext } from '../activitystreams/index.ts';
import { AppError } from '../errors.ts';
import type { Operation } from './types.ts';
import { mapContext } from './shared.ts';
import { projectionPreset, username } from './params.ts';

const input = z.object({ username, projection_preset: projectionPreset });

/** Room status 2 means broadcasting; 4 means ended (PLATFORM.md §2.11). */
const LIVE = 2;

export const getUserLive: Operation<typeof input> = {
  name: 'live',
  tool: 'platform_get_user_live',
  title: "Get a user's current live stream",
  description:
    'The live stream a user is broadcasting right now: title, current viewers, start time, cover, and every stream quality as FLV and HLS files (codec, bitrate, size), best first. Answers not_live when the user is not live.',
  path: '/v1/platform/users/:username/live',
  pathParams: ['username'],
  input,
  resultType: 'Video',
  output: 'LiveVideoDocument',
  cacheKey: (i) => `live:${i.username}`,
  async run(i, deps) {
    const room = await deps.client.getLiveRoom(i.username);
    const notLive = () => new AppError('not_live', `@${i.username} is not live right now.`);
    if (!room.data.roomId || (room.data.status !== undefined && room.data.status !== LIVE)) throw notLive();
    const info = await deps.client.getRoomInfo(room.data.roomId);
    if (info.data.status !== LIVE) throw notLive();
    const ctx = mapContext(deps, info.chainToken ?? room.chainToken);
    return withContext(toLive(room.data, info.data, ctx), deps.config.socialNsUrl);
  },
};
