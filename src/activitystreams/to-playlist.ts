// Maps a platform playlist (mix) to an AS2 OrderedCollection of videos.
import type { RawAuthor, RawPlaylist } from '../upstream/raw.ts';
import type { MapContext, OrderedCollection } from './types.ts';
import { toImage } from './images.ts';
import { toPerson } from './to-person.ts';
import { playlistUrl } from './urls.ts';
import { prune, text, toInt } from './values.ts';

export function toPlaylist(playlist: RawPlaylist, ctx: MapContext, owner?: RawAuthor): OrderedCollection {
  const id = text(playlist.mixId) ?? text(playlist.id) ?? '';
  const name = text(playlist.mixName) ?? text(playlist.name);
  const creator = owner ?? playlist.creator;
  return prune({
    type: 'OrderedCollection' as const,
    id: playlistUrl(ctx.webOrigin, creator?.uniqueId, name, id),
    internalId: id,
    name,
    totalItems: toInt(playlist.videoCount),
    attributedTo: creator ? toPerson(creator, undefined, undefined, ctx) : undefined,
    image: toImage(playlist.cover),
  });
}
