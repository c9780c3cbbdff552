// Maps the sound of a video (`music`) to an AS2 Audio: id is the sound's page, url the audio file.
import type { RawMusic } from '../upstream/raw.ts';
import type { Audio, Dialect, MapContext, StandardAudio, TagDialectAudio } from './types.ts';
import { imageSet, largest } from './images.ts';
import { musicUrl } from './urls.ts';
import { extra, prune, text, toInt } from './values.ts';

const COVER_SIZES = [100, 720, 1080];

export function toAudio(music: RawMusic, ctx: MapContext, dialect?: 'standard'): StandardAudio;
export function toAudio(music: RawMusic, ctx: MapContext, dialect: 'tag'): TagDialectAudio;
export function toAudio(music: RawMusic, ctx: MapContext, dialect: Dialect = 'standard'): Audio {
  const page = musicUrl(ctx.webOrigin, music.title, music.id);
  const playUrl = text(music.playUrl);
  const images = imageSet([music.coverThumb, music.coverMedium, music.coverLarge], COVER_SIZES);
  const author = text(music.authorName);
  const head = {
    type: 'Audio' as const,
    id: page,
    // The file itself when the platform gives it (expiring CDN URL); the sound page otherwise.
    url: playUrl ?? page,
    name: text(music.title),
    mediaType: playUrl ? audioMediaType(playUrl) : undefined,
    duration: toInt(music.duration),
    album: text(music.album),
    videoCount: toInt(extra(music, 'videoCount') ?? extra(extra(music, 'stats'), 'videoCount')),
  };
  const tail = {
    attributedTo: author === undefined ? undefined : { type: 'Person' as const, name: author },
    icon: largest(images),
    image: images,
  };
  if (dialect === 'tag') {
    return prune({ ...head, entityId: music.id, isOriginal: music.original, isCopyrighted: music.isCopyrighted, ...tail });
  }
  return prune({ ...head, ...tail });
}

/** Sound URLs carry `mime_type=audio_mpeg`; `.mp3` object URLs carry none. */
function audioMediaType(url: string): string {
  const match = /[?&]mime_type=([a-z]+)_([a-z0-9.+-]+)/i.exec(url);
  return match ? `${match[1]}/${match[2]}` : 'audio/mpeg';
}
