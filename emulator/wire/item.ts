// The camelCase `itemStruct` of one video or photo post, with the keys and value types of the
// 2025 post-list sample (author, stats/statsV2, video with bitrateInfo, subtitleInfos, claInfo).
import { hash32, hexFrom, makeId, roundCount } from '../prng.ts';
import type { Dataset } from '../dataset/dataset.ts';
import type { Video } from '../dataset/videos.ts';
import { SONGS, SUBTITLE_LANGUAGES, TAGS } from '../words.ts';
import { authorOf, statsPair, userCounts } from './user.ts';
import {
  audioFileUrl, coverUrl, DEFAULT_GEAR, GEARS, mediaExpiry, playRedirectUrl, subtitleRedirectUrl, subtitleUrl,
  videoFileUrl, videoIdString,
} from './urls.ts';
import type { WireContext } from './urls.ts';
import { buildVtt } from './vtt.ts';
import { LARGE_MEDIA_BYTES } from './media-bytes.ts';

function textExtraOf(video: Video) {
  let pos = video.caption.length + 1;
  return video.tags.map((t) => {
    const name = TAGS[t];
    const entry = { awemeId: '', end: pos + name.length + 1, hashtagName: name, isCommerce: false, start: pos, subType: 0, type: 1 };
    pos += name.length + 2;
    return entry;
  });
}

export function challengeOf(ds: Dataset, tagIndex: number) {
  const tag = ds.lists.tags[tagIndex];
  return {
    coverLarger: '', coverMedium: '', coverThumb: '', desc: tagIndex === 0 ? 'For you 💫' : '',
    id: tag.id, profileLarger: '', profileMedium: '', profileThumb: '', title: tag.title,
  };
}

function musicOf(ctx: WireContext, video: Video) {
  const original = video.song < 0;
  const musicId = original ? makeId(video.createTime, hash32(video.index, 5) & 0x7fffffff) : makeId(1_600_000_000 + video.song * 1000, video.song + 1);
  const cover = coverUrl(ctx, 'm' + hexFrom(30, Number(musicId.slice(-7))), 'tiktokx-cropcenter:720:720.jpeg');
  return {
    album: original ? '' : `${SONGS[video.song][0]} (Single)`,
    authorName: original ? video.owner.nickname : SONGS[video.song][1],
    coverLarge: cover, coverMedium: cover, coverThumb: cover,
    duration: original ? video.duration : 30,
    id: musicId,
    isCopyrighted: !original,
    original,
    playUrl: audioFileUrl(ctx, musicId),
    private: false,
    title: original ? `original sound - ${video.owner.uniqueId}` : SONGS[video.song][0],
    tt2dsp: {},
  };
}

/** Bitrate of one rendition; the CDN handler uses it to serve exactly `DataSize` bytes. */
export function renditionBitrate(video: Video, gear: number): number {
  return Math.floor(404_677 * GEARS[gear].factor * (0.8 + (hash32(video.index, gear) % 400) / 1000));
}

function playAddrOf(ctx: WireContext, video: Video, gear: number) {
  const g = GEARS[gear];
  const long = Math.round((g.short * 16) / 9);
  const portrait = video.height >= video.width;
  const bitrate = renditionBitrate(video, gear);
  const vid = videoIdString(video.id);
  return {
    bitrate,
    addr: {
      DataSize: renditionSize(video, gear),
      FileCs: `c:0-${16_000 + (hash32(video.index, gear, 1) % 900)}-${hexFrom(4, video.index, gear)}`,
      FileHash: hexFrom(32, video.index, gear, 2),
      Height: portrait ? long : g.short,
      Uri: vid,
      UrlKey: `${vid}_${g.key}_${g.short === 576 ? 540 : g.short}p_${bitrate}`,
      UrlList: [videoFileUrl(ctx, video.id, gear), playRedirectUrl(ctx, video.id, gear)],
      Width: portrait ? g.short : long,
    },
  };
}

/** Served byte count of a rendition; capped so media stays cheap to serve, but for the large video. */
export function renditionSize(video: Video, gear: number): number {
  if (video.large) return Math.round((LARGE_MEDIA_BYTES * GEARS[gear].factor) / GEARS[0].factor);
  const bitrate = renditionBitrate(video, gear);
  return Math.min(Math.floor((Math.max(video.duration, 1) * bitrate) / 8), 4_000_000);
}

function subtitlesOf(ctx: WireContext, video: Video) {
  const expire = mediaExpiry(ctx);
  const infos = video.subtitles.map((k, i) => {
    const lang = SUBTITLE_LANGUAGES[k];
    const asr = i === 0;
    return {
      Format: 'webvtt', LanguageCodeName: lang.code, LanguageID: lang.id,
      Size: Buffer.byteLength(buildVtt(video.id, k, video.duration)),
      Source: asr ? 'ASR' : 'MT', Url: subtitleUrl(ctx, video.id, k), UrlExpire: expire,
      Version: asr ? '1:whisper_lid' : '4',
    };
  });
  const captions = infos.map((s, i) => ({
    captionFormat: 'webvtt', claSubtitleID: makeId(video.createTime + 60, hash32(video.index, i) & 0x7fffffff),
    expire: String(expire), isAutoGen: true, isOriginalCaption: i === 0, language: s.LanguageCodeName,
    languageCode: SUBTITLE_LANGUAGES[video.subtitles[i]].lines, languageID: s.LanguageID,
    subID: String((hash32(video.index, i, 3) | 0)), subtitleType: i === 0 ? '1' : '4', translationType: '0',
    url: s.Url, urlList: [s.Url, subtitleRedirectUrl(ctx, video.id, s.LanguageCodeName, s.Version)],
    variant: i === 0 ? 'whisper_lid' : 'default',
  }));
  const original = infos[0];
  const claInfo = {
    captionInfos: captions, captionsType: captions.length ? 2 : 0, enableAutoCaption: captions.length > 0,
    hasOriginalAudio: false,
    ...(original ? { originalLanguageInfo: { canTranslateRealTimeNoCheck: true, language: original.LanguageCodeName, languageCode: captions[0].languageCode, languageID: original.LanguageID } } : { noCaptionReason: 1 }),
  };
  return { subtitleInfos: infos, claInfo };
}

function videoOf(ctx: WireContext, video: Video) {
  const name = (k: string) => 'o' + hexFrom(30, video.index, k.length) + k;
  const cover = coverUrl(ctx, name('c'), 'tiktokx-origin.image');
  const zoom = (n: number) => coverUrl(ctx, name('c'), `photomode-zoomcover:${n}:${n}.avif`);
  const gears = GEARS.map((_, gear) => playAddrOf(ctx, video, gear));
  const main = gears[DEFAULT_GEAR];
  return {
    PlayAddrStruct: main.addr, VQScore: (50 + (video.index % 1500) / 100).toFixed(2), bitrate: main.bitrate,
    bitrateInfo: gears.map((g, gear) => ({
      Bitrate: g.bitrate, BitrateFPS: 30, CodecType: GEARS[gear].codec, Format: 'mp4', GearName: GEARS[gear].name,
      MVMAF: '', PlayAddr: g.addr, QualityType: GEARS[gear].quality, VideoExtra: '',
    })),
    ...subtitlesOf(ctx, video),
    codecType: 'h264', cover, definition: '540p', downloadAddr: main.addr.UrlList[0], duration: video.duration,
    dynamicCover: coverUrl(ctx, name('d'), 'tiktokx-origin.image'), encodeUserTag: '', encodedType: 'normal',
    format: 'mp4', height: video.height, id: video.id, originCover: coverUrl(ctx, name('o'), 'tiktokx-origin.image'),
    playAddr: main.addr.UrlList[0], ratio: '540p', size: main.addr.DataSize, videoID: videoIdString(video.id),
    videoQuality: 'normal', volumeInfo: { Loudness: -20.6, Peak: 0.26002 }, width: video.width,
    zoomCover: { 240: zoom(240), 480: zoom(480), 720: zoom(720), 960: zoom(960) },
  };
}

function imagePostOf(ctx: WireContext, video: Video) {
  const image = (k: number) => ({
    imageHeight: 1920, imageWidth: 1080,
    imageURL: { urlList: [coverUrl(ctx, 'p' + hexFrom(30, video.index, k), 'photomode-image.jpeg')] },
  });
  const count = 2 + (video.index % 5);
  return { cover: image(0), images: Array.from({ length: count }, (_, k) => image(k)), shareCover: image(0), title: video.caption };
}

export function itemStructOf(ctx: WireContext, ds: Dataset, video: Video) {
  const counts = userCounts(ds, video.owner);
  const author = statsPair(counts);
  const desc = [video.caption, ...video.tags.map((t) => `#${TAGS[t]}`)].join(' ') + ' ';
  const textExtra = textExtraOf(video);
  const commentCount = video.commentCount ?? video.topComments + ds.comments.replyCountOfVideo(video);
  const item = {
    AIGCDescription: '', CategoryType: 100 + (video.index % 30), author: authorOf(ctx, video.owner),
    authorStats: author.stats, authorStatsV2: author.statsV2, backendSourceEventTracking: '',
    challenges: video.tags.map((t) => challengeOf(ds, t)), collected: false,
    contents: [{ desc, textExtra }], createTime: video.createTime,
    creatorAIComment: { eligibleVideo: false, hasAITopic: false, notEligibleReason: 101 },
    desc, digged: false, diversificationId: 10_000 + (video.index % 90), duetDisplay: 0, duetEnabled: true,
    forFriend: false, id: video.id, isAd: false, isPinnedItem: video.pinned, isReviewing: false,
    itemCommentStatus: 0, item_control: { can_repost: true }, locationCreated: video.owner.region,
    music: musicOf(ctx, video), officalItem: false, originalItem: false, privateItem: video.privateItem,
    secret: video.privateItem, shareEnabled: true,
    stats: {
      collectCount: roundCount(video.collectCount), commentCount: roundCount(commentCount),
      diggCount: roundCount(video.diggCount), playCount: roundCount(video.playCount), shareCount: roundCount(video.shareCount),
    },
    statsV2: {
      collectCount: String(video.collectCount), commentCount: String(commentCount), diggCount: String(video.diggCount),
      playCount: String(video.playCount), repostCount: String(video.repostCount), shareCount: String(video.shareCount),
    },
    stitchDisplay: 0, stitchEnabled: true, textExtra, textLanguage: video.textLanguage, textTranslatable: true,
    video: videoOf(ctx, video),
  };
  const extras: Record<string, unknown> = {};
  if (video.photo) extras.imagePost = imagePostOf(ctx, video);
  if (video.playlist >= 0) extras.playlistId = ds.lists.playlists(video.owner)[video.playlist].mixId;
  return { ...item, ...extras };
}
