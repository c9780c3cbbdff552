// Control endpoints that change the seeded data while the emulator runs: publish a video, edit a
// profile, start or end a live, move a video's counts. Every platform handler reflects them.
import { z } from 'zod';
import type { Dataset } from './dataset/dataset.ts';
import type { User } from './dataset/users.ts';
import { forgetUserCounts } from './wire/user.ts';

export type ControlReply = { status: number; body: unknown };

const count = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);
const PublishBody = z.strictObject({ tags: z.array(z.string().min(1).max(100)).max(10).optional() });
const ProfileBody = z
  .strictObject({ nickname: z.string().min(1).max(60).optional(), signature: z.string().max(200).optional() })
  .refine((b) => b.nickname !== undefined || b.signature !== undefined, 'send nickname, signature or both');
const LiveBody = z.strictObject({ live: z.boolean() });
const CountsBody = z
  .strictObject({
    playCount: count.optional(), diggCount: count.optional(), commentCount: count.optional(),
    shareCount: count.optional(), collectCount: count.optional(), repostCount: count.optional(),
  })
  .refine((b) => Object.keys(b).length > 0, 'send at least one count');

const USER_VIDEOS = /^\/__emulator\/users\/([^/]+)\/videos$/;
const USER = /^\/__emulator\/users\/([^/]+)$/;
const USER_LIVE = /^\/__emulator\/users\/([^/]+)\/live$/;
const VIDEO = /^\/__emulator\/videos\/(\d+)$/;

function invalid(error: z.ZodError): ControlReply {
  return { status: 400, body: { error: 'invalid_body', issues: error.issues.map((i) => ({ path: i.path.join('.'), message: i.message })) } };
}

function parse<T>(schema: z.ZodType<T>, raw: string): { data: T } | { reply: ControlReply } {
  let json: unknown;
  try {
    json = raw.trim() === '' ? {} : JSON.parse(raw);
  } catch {
    return { reply: { status: 400, body: { error: 'invalid_json' } } };
  }
  const result = schema.safeParse(json);
  return result.success ? { data: result.data } : { reply: invalid(result.error) };
}

/** Lists and counts derived from the data are computed again on the next request. */
function changed(ds: Dataset): void {
  ds.lists.forget();
  forgetUserCounts(ds);
}

function publish(ds: Dataset, user: User, raw: string, nowMs: number): ControlReply {
  const parsed = parse(PublishBody, raw);
  if ('reply' in parsed) return parsed.reply;
  const tags: number[] = [];
  for (const name of parsed.data.tags ?? []) {
    const tag = ds.lists.tagByName(name.replace(/^#/, ''));
    if (!tag) return { status: 400, body: { error: 'unknown_tag', tag: name } };
    if (!tags.includes(tag.index)) tags.push(tag.index);
  }
  const video = ds.videos.publish(user, tags, Math.floor(nowMs / 1000));
  changed(ds);
  return { status: 201, body: { id: video.id, createTime: video.createTime, tags: tags.map((t) => ds.lists.tags[t].title) } };
}

/** Answers a control request under `/__emulator/users/` or `/__emulator/videos/`, or undefined when none matches. */
export function overlayControl(ds: Dataset, method: string, path: string, body: string, nowMs: number): ControlReply | undefined {
  const userOf = (name: string) => ds.userByUniqueId(decodeURIComponent(name));
  const unknownUser = { status: 404, body: { error: 'unknown_user' } };
  let m: RegExpExecArray | null;
  if ((m = USER_VIDEOS.exec(path)) && method === 'POST') {
    const user = userOf(m[1]);
    return user ? publish(ds, user, body, nowMs) : unknownUser;
  }
  if ((m = USER_LIVE.exec(path)) && method === 'PUT') {
    const user = userOf(m[1]);
    if (!user) return unknownUser;
    const parsed = parse(LiveBody, body);
    if ('reply' in parsed) return parsed.reply;
    ds.setLive(user, parsed.data.live, Math.floor(nowMs / 1000));
    return { status: 200, body: { live: user.live, roomId: user.live ? user.roomId : '' } };
  }
  if ((m = USER.exec(path)) && method === 'PATCH') {
    const user = userOf(m[1]);
    if (!user) return unknownUser;
    const parsed = parse(ProfileBody, body);
    if ('reply' in parsed) return parsed.reply;
    if (parsed.data.nickname !== undefined) user.nickname = parsed.data.nickname;
    if (parsed.data.signature !== undefined) user.signature = parsed.data.signature;
    changed(ds);
    return { status: 200, body: { uniqueId: user.uniqueId, nickname: user.nickname, signature: user.signature } };
  }
  if ((m = VIDEO.exec(path)) && method === 'PATCH') {
    const video = ds.videos.byId(m[1]);
    if (!video) return { status: 404, body: { error: 'unknown_video' } };
    const parsed = parse(CountsBody, body);
    if ('reply' in parsed) return parsed.reply;
    const after = ds.videos.patchCounts(video, parsed.data);
    changed(ds);
    const { playCount, diggCount, shareCount, collectCount, repostCount } = after;
    return { status: 200, body: { id: after.id, playCount, diggCount, shareCount, collectCount, repostCount, commentCount: after.commentCount ?? null } };
  }
  return undefined;
}
