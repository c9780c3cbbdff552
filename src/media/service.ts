// Media downloads as a service: resolve a video and a format to CDN URLs (through the cached video,
// so the operation's problems apply: 404, private, geo-blocked), then open the file through the
// identity that fetched it, refreshing the video once when the CDN refuses a link (expired).
import { AppError } from '../errors.ts';
import { toVideo } from '../activitystreams/index.ts';
import { mediaHeaders } from '../activitystreams/media.ts';
import { getVideoCached } from '../operations/get-video.ts';
import { mapContext, withSignal } from '../operations/shared.ts';
import type { OperationDeps } from '../operations/types.ts';
import type { Fetched } from '../upstream/types.ts';
import type { RawItem } from '../upstream/raw.ts';
import type { MediaFetcher, MediaResponse } from '../upstream/media-fetch.ts';
import { chooseMedia, type MediaChoice } from './formats.ts';

export type OpenedMedia = { choice: MediaChoice; response: MediaResponse };

export type MediaService = {
  /** The file a format names; rejects with the video operation's problems. */
  resolve(videoId: string, format: string, signal: AbortSignal): Promise<MediaChoice>;
  /**
   * Opens the file. `resolveSignal` bounds finding it (the request deadline); `streamSignal` (the
   * client going away) ends the transfer later. Answers 200, 206 or 416; other CDN answers throw.
   */
  open(input: { videoId: string; format: string; range: string | undefined; method: 'GET' | 'HEAD' }, resolveSignal: AbortSignal, streamSignal: AbortSignal): Promise<OpenedMedia>;
};

/** CDN answers that a fresh copy of the video's links may cure. */
const REFUSED = new Set([401, 403, 404, 410]);

function choiceOf(deps: OperationDeps, fetched: Fetched<RawItem>, format: string): MediaChoice & { chainToken: string | undefined } {
  const ctx = mapContext(deps, fetched.chainToken);
  return { ...chooseMedia(toVideo(fetched.data, ctx), format, mediaHeaders(ctx)), chainToken: fetched.chainToken };
}

export function createMediaService(deps: { operations: OperationDeps; fetcher: MediaFetcher }): MediaService {
  const { operations, fetcher } = deps;

  async function tryUrls(choice: MediaChoice & { chainToken: string | undefined }, input: { range: string | undefined; method: 'GET' | 'HEAD' }, streamSignal: AbortSignal) {
    let lastStatus: number | undefined;
    let lastError: unknown;
    for (const url of choice.urls) {
      let response: MediaResponse;
      try {
        response = await fetcher.open({ url, headers: choice.headers, chainToken: choice.chainToken, range: input.range, method: input.method }, streamSignal);
      } catch (error) {
        if (streamSignal.aborted) throw error;
        lastError = error;
        continue;
      }
      if (response.status === 200 || response.status === 206 || response.status === 416) return { response };
      response.abort();
      lastStatus = response.status;
      if (response.status === 429) {
        const retryAfter = Number(response.headers.get('retry-after'));
        throw new AppError('upstream_blocked', 'The platform CDN is limiting requests; try again shortly.', { retryAfterSeconds: Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter : 5 });
      }
    }
    return { lastStatus, lastError };
  }

  return {
    async resolve(videoId, format, signal) {
      return choiceOf(operations, await getVideoCached(withSignal(operations, signal), videoId), format);
    },
    async open(input, resolveSignal, streamSignal) {
      const bound = withSignal(operations, resolveSignal);
      let choice = choiceOf(operations, await getVideoCached(bound, input.videoId), input.format);
      let outcome = await tryUrls(choice, input, streamSignal);
      if (!outcome.response && (outcome.lastStatus === undefined || REFUSED.has(outcome.lastStatus))) {
        // Links expire and cookies rotate: once, with the video fetched anew (not from the cache).
        choice = choiceOf(operations, await bound.client.getVideo(input.videoId), input.format);
        outcome = await tryUrls(choice, input, streamSignal);
      }
      if (outcome.response) {
        // The deadline passed while the CDN answered: nobody waits for this transfer.
        if (resolveSignal.aborted) {
          outcome.response.abort();
          throw resolveSignal.reason;
        }
        return { choice, response: outcome.response };
      }
      if (outcome.lastStatus === undefined && outcome.lastError instanceof AppError) throw outcome.lastError;
      throw new AppError('upstream_error', `The platform CDN refused the file${outcome.lastStatus ? ` (HTTP ${outcome.lastStatus})` : ''}.`, {
        ...(outcome.lastError === undefined ? {} : { cause: outcome.lastError }),
        details: outcome.lastStatus === undefined ? {} : { cdnStatus: outcome.lastStatus },
        retryAfterSeconds: 5,
      });
    },
  };
}
