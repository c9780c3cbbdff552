// Signed media links for clients that cannot send a header (a browser's <video>): the link names the
// video, the format, the API key it is charged to and its expiry, sealed with the nodes' shared
// cursor key (HMAC-SHA256), so any node verifies it and nothing is stored.
import { AppError } from '../errors.ts';
import type { CursorSigner } from '../operations/cursor-keys.ts';

export type MediaLink = { href: string; expiresAtMs: number };

export type MediaLinks = {
  issue(input: { videoId: string; format: string; keyId: string; ttlSeconds: number }): MediaLink;
  /** The key id the link is charged to; `invalid_link` or `link_expired` otherwise. */
  verify(input: { videoId: string; format: string; link: string }): Promise<{ keyId: string }>;
};

const bindingOf = (videoId: string, format: string) => `media-link\n${videoId}\n${format}`;

export function createMediaLinks(deps: { signer: CursorSigner; publicUrl: string; clock?: { now(): number } }): MediaLinks {
  const clock = deps.clock ?? Date;
  return {
    issue({ videoId, format, keyId, ttlSeconds }) {
      const expiresAtMs = (Math.floor(clock.now() / 1000) + ttlSeconds) * 1000;
      const payload = Buffer.from(JSON.stringify({ k: keyId, e: expiresAtMs / 1000 })).toString('base64url');
      const link = deps.signer.seal(bindingOf(videoId, format), payload);
      const query = new URLSearchParams({ format, link });
      return { href: `${deps.publicUrl}/v1/platform/videos/${videoId}/media?${query}`, expiresAtMs };
    },
    async verify({ videoId, format, link }) {
      const payload = link.length <= 512 ? await deps.signer.open(bindingOf(videoId, format), link) : undefined;
      let fields: { k?: unknown; e?: unknown } | undefined;
      try {
        fields = payload === undefined ? undefined : (JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { k?: unknown; e?: unknown });
      } catch {
        fields = undefined;
      }
      if (!fields || typeof fields.k !== 'string' || typeof fields.e !== 'number') {
        throw new AppError('invalid_link', 'This media link was altered, or was not issued for this video and format.');
      }
      if (clock.now() >= fields.e * 1000) {
        throw new AppError('link_expired', 'This media link has expired; ask POST /v1/platform/videos/{videoId}/media-links for a new one.', {
          details: { expired: new Date(fields.e * 1000).toISOString() },
        });
      }
      return { keyId: fields.k };
    },
  };
}
