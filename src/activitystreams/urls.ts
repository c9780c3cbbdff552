// Canonical platform URLs that reelay uses as ids: profiles, videos, tags, sounds, playlists and
// comments. Path segments are percent-encoded so every id is a valid URL, not just an IRI.

export function profileUrl(webOrigin: string, uniqueId: string): string {
  return `${webOrigin}/@${encodeURIComponent(uniqueId)}`;
}

export function videoUrl(webOrigin: string, uniqueId: string, videoId: string): string {
  return `${profileUrl(webOrigin, uniqueId)}/video/${encodeURIComponent(videoId)}`;
}

export function tagUrl(webOrigin: string, name: string): string {
  return `${webOrigin}/tag/${encodeURIComponent(name)}`;
}

export function liveUrl(webOrigin: string, uniqueId: string): string {
  return `${profileUrl(webOrigin, uniqueId)}/live`;
}

/** The sound page `/music/<title slug>-<id>`; the platform resolves it by the trailing id. */
export function musicUrl(webOrigin: string, title: string | undefined, id: string): string {
  return `${webOrigin}/music/${slug(title, 'sound')}-${encodeURIComponent(id)}`;
}

/** The playlist page `/@user/playlist/<name slug>-<id>` (PLATFORM.md §2.6). */
export function playlistUrl(webOrigin: string, uniqueId: string | undefined, name: string | undefined, id: string): string {
  const owner = uniqueId === undefined ? '' : `/@${encodeURIComponent(uniqueId)}`;
  return `${webOrigin}${owner}/playlist/${slug(name, 'playlist')}-${encodeURIComponent(id)}`;
}

/**
 * A comment has no page of its own, so its id is the video URL with a `comment_id` query: stable,
 * unique per comment, and it still opens the video.
 */
export function commentUrl(videoPageUrl: string, commentId: string): string {
  return `${videoPageUrl}?comment_id=${encodeURIComponent(commentId)}`;
}

/** Runs of anything but letters and digits become one '-'; case is kept as the platform does. */
export function slug(value: string | undefined, fallback: string): string {
  const cleaned = (value ?? '').replace(/[^\p{L}\p{N}]+/gu, '-').replace(/^-+|-+$/g, '');
  return encodeURIComponent(cleaned === '' ? fallback : cleaned);
}

/** Biography links come without a scheme ("taylorswift.com"); ids and hrefs must be absolute. */
export function absoluteUrl(link: string): string {
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(link) ? link : `https://${link}`;
}
