// Maps a platform user (camelCase author object plus its stats) to an AS2 Person, in the standard
// or the tag-videos dialect of the spec.
import type { RawAuthor, RawCommentUser, RawUserStats } from '../upstream/raw.ts';
import type { Dialect, Image, Link, MapContext, Person, StandardPerson, TagDialectPerson } from './types.ts';
import { imageSet, largest, toImage } from './images.ts';
import { absoluteUrl, profileUrl } from './urls.ts';
import { pickCount, prune, text, toTimestamp } from './values.ts';

/** Avatar variants are 100, 720 and 1080 pixels square (the URLs' cropcenter hint). */
const AVATAR_SIZES = [100, 720, 1080];

export function toPerson(author: RawAuthor, stats: RawUserStats | undefined, statsV2: RawUserStats | undefined, ctx: MapContext, dialect?: 'standard'): StandardPerson;
export function toPerson(author: RawAuthor, stats: RawUserStats | undefined, statsV2: RawUserStats | undefined, ctx: MapContext, dialect: 'tag'): TagDialectPerson;
export function toPerson(
  author: RawAuthor,
  stats: RawUserStats | undefined,
  statsV2: RawUserStats | undefined,
  ctx: MapContext,
  dialect: Dialect = 'standard',
): Person {
  const tag = dialect === 'tag';
  const url = profileUrl(ctx.webOrigin, author.uniqueId);
  const images = imageSet([author.avatarThumb, author.avatarMedium, author.avatarLarger], AVATAR_SIZES);
  const count = (key: keyof RawUserStats) => pickCount(statsV2?.[key], stats?.[key]);
  const head = {
    type: 'Person' as const,
    id: url,
    url,
    preferredUsername: author.uniqueId,
    name: text(author.nickname),
    summary: text(author.signature),
  };
  const flags = {
    isPrivate: author.privateAccount,
    isVerified: author.verified,
    // Only profile and live payloads carry roomId; elsewhere liveness is unknown, so it is left out.
    isLive: author.roomId === undefined ? undefined : author.roomId !== '',
    published: toTimestamp(author.createTime),
    hasLikes: author.openFavorite,
    // canExpPlaylist is a capability (true for accounts with no playlist); the tab shows real ones.
    hasPlaylists: author.profileTab?.showPlayListTab,
    followerCount: count('followerCount'),
    followingCount: count('followingCount'),
    likeCount: count('heartCount') ?? count('heart'),
  };
  const media = { attachment: bioLinks(author, tag), icon: largest(images), image: images };
  if (tag) {
    return prune({
      ...head,
      entityId: text(author.secUid),
      ...flags,
      mediaCount: count('videoCount'),
      likedCount: count('diggCount'),
      language: text(author.language),
      ...media,
    });
  }
  return prune({ ...head, userId: text(author.id), internalId: text(author.secUid), ...flags, videoCount: count('videoCount'), ...media });
}

function bioLinks(author: RawAuthor, tag: boolean): Link[] {
  const link = text(author.bioLink?.link);
  if (link === undefined) return [];
  return [prune({ type: 'Link' as const, href: absoluteUrl(link), rel: tag ? 'me' : undefined })];
}

/** The snake_case (aweme) user of comments: fewer fields, one avatar. */
export function toCommentAuthor(user: RawCommentUser, ctx: MapContext): StandardPerson {
  const url = profileUrl(ctx.webOrigin, user.unique_id);
  const thumb: Image | undefined = toImage(user.avatar_thumb?.url_list[0]);
  const icon = thumb && thumb.width === undefined ? { ...thumb, width: AVATAR_SIZES[0], height: AVATAR_SIZES[0] } : thumb;
  return prune({
    type: 'Person' as const,
    id: url,
    url,
    preferredUsername: user.unique_id,
    name: text(user.nickname),
    userId: text(user.uid),
    internalId: text(user.sec_uid),
    attachment: [],
    icon,
    // The one avatar size comments carry is the whole set.
    image: icon ? [icon] : [],
  });
}
