// Maps a platform itemStruct (a video or a photo post) to an AS2 Video, in the standard or the
// tag-videos dialect of the spec.
import type { RawItem } from '../upstream/raw.ts';
import type { Dialect, Image, MapContext, Place, Tag, Video } from './types.ts';
import { toImage } from './images.ts';
import { toMediaFiles, toPhotoImages } from './media.ts';
import { toAudio } from './to-audio.ts';
import { toPerson } from './to-person.ts';
import { tagUrl, videoUrl } from './urls.ts';
import { pickCount, prune, text, toInt, toTimestamp } from './values.ts';

export function toVideo(item: RawItem, ctx: MapContext, dialect: Dialect = 'standard'): Video {
  const tag = dialect === 'tag';
  const url = videoUrl(ctx.webOrigin, item.author.uniqueId, item.id);
  const count = (key: 'playCount' | 'diggCount' | 'commentCount' | 'repostCount' | 'shareCount' | 'collectCount') =>
    pickCount(item.statsV2?.[key], item.stats?.[key]);
  const photos = toPhotoImages(item);
  const covers = toCovers(item);
  const attachment = photos.length > 0 ? photos : toMediaFiles(item.video, ctx);
  const tags = toTags(item, ctx, dialect);
  return prune({
    type: 'Video' as const,
    id: url,
    url,
    internalId: tag ? undefined : item.id,
    entityId: tag ? item.id : undefined,
    published: toTimestamp(item.createTime),
    summary: tag ? undefined : text(item.desc),
    content: tag ? text(item.desc) : undefined,
    language: tag ? text(item.textLanguage) : undefined,
    isSponsored: tag ? item.isAd === true || item.adAuthorization === true : undefined,
    location: tag ? toPlace(item) : undefined,
    duration: toInt(item.video?.duration),
    viewCount: count('playCount'),
    likeCount: count('diggCount'),
    commentCount: count('commentCount'),
    repostCount: count('repostCount'),
    shareCount: count('shareCount'),
    saveCount: count('collectCount'),
    attributedTo: toPerson(item.author, item.authorStats, item.authorStatsV2, ctx, dialect),
    tag: tags.length > 0 ? tags : undefined,
    audio: item.music ? toAudio(item.music, ctx, dialect) : undefined,
    image: covers.image,
    preview: covers.preview,
    icon: covers.icon,
    attachment: attachment.length > 0 ? attachment : undefined,
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

/** Challenges first (they carry ids), then caption hashtags not already listed; names compared case-blind. */
function toTags(item: RawItem, ctx: MapContext, dialect: Dialect): Tag[] {
  const tags: Tag[] = [];
  const seen = new Set<string>();
  const add = (name: string | undefined, id: string | undefined) => {
    if (name === undefined || seen.has(name.toLowerCase())) return;
    seen.add(name.toLowerCase());
    const href = tagUrl(ctx.webOrigin, name);
    const key = dialect === 'tag' ? 'entityId' : 'internalId';
    tags.push(prune({ type: 'Tag' as const, id: href, name, href, [key]: id }));
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
