// Maps a platform itemStruct (a video or a photo post) to an AS2 Video, in the standard or the
// tag-videos dialect of the spec.
import type { RawItem } from '../upstream/raw.ts';
import type { Dialect, Image, MapContext, Place, StandardVideo, TagDialectVideo, Video } from './types.ts';
import { toImage } from './images.ts';
import { toMediaFiles, toPhotoImages } from './media.ts';
import { toAudio } from './to-audio.ts';
import { toPerson } from './to-person.ts';
import { tagUrl, videoUrl } from './urls.ts';
import { pickCount, prune, text, toInt, toTimestamp } from './values.ts';

export function toVideo(item: RawItem, ctx: MapContext, dialect?: 'standard'): StandardVideo;
export function toVideo(item: RawItem, ctx: MapContext, dialect: 'tag'): TagDialectVideo;
export function toVideo(item: RawItem, ctx: MapContext, dialect: Dialect): Video;
export function toVideo(item: RawItem, ctx: MapContext, dialect: Dialect = 'standard'): Video {
  const url = videoUrl(ctx.webOrigin, item.author.uniqueId, item.id);
  const count = (key: 'playCount' | 'diggCount' | 'commentCount' | 'repostCount' | 'shareCount' | 'collectCount') =>
    pickCount(item.statsV2?.[key], item.stats?.[key]);
  const photos = toPhotoImages(item);
  const covers = toCovers(item);
  const head = { type: 'Video' as const, id: url, url };
  const published = toTimestamp(item.createTime);
  const counts = {
    duration: toInt(item.video?.duration),
    viewCount: count('playCount'),
    likeCount: count('diggCount'),
    commentCount: count('commentCount'),
    repostCount: count('repostCount'),
    shareCount: count('shareCount'),
    saveCount: count('collectCount'),
  };
  const media = {
    image: covers.image,
    preview: covers.preview,
    icon: covers.icon,
    attachment: photos.length > 0 ? photos : toMediaFiles(item.video, ctx),
  };
  const hashtags = toHashtags(item, ctx);
  if (dialect === 'tag') {
    return prune({
      ...head,
      entityId: item.id,
      published,
      content: text(item.desc),
      language: text(item.textLanguage),
      isSponsored: item.isAd === true || item.adAuthorization === true,
      location: toPlace(item),
      ...counts,
      attributedTo: toPerson(item.author, item.authorStats, item.authorStatsV2, ctx, 'tag'),
      tag: hashtags.map((h) => prune({ type: 'Tag' as const, id: h.href, name: h.name, href: h.href, entityId: h.platformId })),
      audio: item.music ? toAudio(item.music, ctx, 'tag') : undefined,
      ...media,
    });
  }
  return prune({
    ...head,
    internalId: item.id,
    published,
    summary: text(item.desc),
    ...counts,
    attributedTo: toPerson(item.author, item.authorStats, item.authorStatsV2, ctx),
    tag: hashtags.map((h) => prune({ type: 'Tag' as const, id: h.href, name: h.name, href: h.href, internalId: h.platformId })),
    audio: item.music ? toAudio(item.music, ctx) : undefined,
    ...media,
  });
}

/**
 * image = the static cover, preview = the animated cover (else the original-ratio cover), icon =
 * the original-ratio cover. All share the video's frame size. Photo posts fall back to their cover.
 */
function toCovers(item: RawItem): { image?: Image; preview?: Image; icon?: Image } {
  const video = item.video;
  const width = toInt(video?.width) || undefined;
  const height = toInt(video?.height) || undefined;
  const photoCover = toImage(item.imagePost?.cover?.imageURL?.urlList[0]);
  const image = toImage(video?.cover, width, height) ?? photoCover;
  const preview = toImage(video?.dynamicCover, width, height) ?? toImage(video?.originCover, width, height);
  const icon = toImage(video?.originCover, width, height) ?? image;
  return { image, preview, icon };
}

type Hashtag = { name: string; href: string; platformId: string | undefined };

/** Challenges first (they carry ids), then caption hashtags not already listed; names compared case-blind. */
function toHashtags(item: RawItem, ctx: MapContext): Hashtag[] {
  const tags: Hashtag[] = [];
  const seen = new Set<string>();
  const add = (name: string | undefined, id: string | undefined) => {
    if (name === undefined || seen.has(name.toLowerCase())) return;
    seen.add(name.toLowerCase());
    tags.push({ name, href: tagUrl(ctx.webOrigin, name), platformId: id });
  };
  for (const challenge of item.challenges ?? []) add(text(challenge.title), text(challenge.id));
  for (const extra of item.textExtra ?? []) if (extra.type === 1) add(text(extra.hashtagName), text(extra.hashtagId));
  return tags;
}

/** A tagged place wins over the country the video was posted from. */
function toPlace(item: RawItem): Place | undefined {
  const name = text(item.poi?.name) ?? text(item.locationCreated);
  return name === undefined ? undefined : { type: 'Place', name };
}
