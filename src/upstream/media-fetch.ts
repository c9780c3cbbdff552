// Opens a platform CDN file for streaming: through the identity whose cookie jar fetched the video
// (its tt_chain_token, TLS fingerprint and proxy), with the Referer the CDN wants, never buffered.
import { AppError } from '../errors.ts';
import type { IdentityPool, Identity } from './identities.ts';
import { connectFailure } from './request.ts';

export type MediaRequest = {
  url: string;
  /** The attachment's `headers` (`Cookie: tt_chain_token=…`, `Referer`). */
  headers: Record<string, string>;
  /** The chain token of the identity that fetched the video, to pick that identity again. */
  chainToken: string | undefined;
  /** A validated `bytes=…` range, passed on as is. */
  range: string | undefined;
  method: 'GET' | 'HEAD';
};

export type MediaResponse = {
  status: number;
  headers: Headers;
  body: ReadableStream<Uint8Array> | null;
  /** Stops the transfer and closes the platform connection; safe to call more than once. */
  abort(): void;
};

export type MediaFetcher = { open(request: MediaRequest, signal: AbortSignal | undefined): Promise<MediaResponse> };

/** A whole file may take long over a slow link; only the wait for the CDN's headers is bounded tightly. */
const TRANSFER_TIMEOUT_MS = 6 * 60 * 60 * 1000;

export function createMediaFetcher(deps: { pool: IdentityPool; webOrigin: string; headersTimeoutMs: number }): MediaFetcher {
  /** The identity holding this chain token, else any identity (the cookie then travels explicitly). */
  async function identityFor(chainToken: string | undefined): Promise<{ identity: Identity; ownsCookie: boolean }> {
    if (chainToken) {
      for (const identity of deps.pool.identities) {
        if (!identity.retired && (await identity.session.getCookie('tt_chain_token', deps.webOrigin)) === chainToken) return { identity, ownsCookie: true };
      }
    }
    // No request is sent under this lease: media transfers are not paced like API calls.
    const lease = await deps.pool.acquire();
    lease.release();
    return { identity: lease.identity, ownsCookie: false };
  }

  return {
    async open(request, signal) {
      const { identity, ownsCookie } = await identityFor(request.chainToken);
      const stream = identity.session.stream?.bind(identity.session);
      if (!stream) throw new AppError('upstream_error', 'This transport cannot stream media files.');
      const controller = new AbortController();
      const onCallerGone = () => controller.abort(signal?.reason);
      if (signal?.aborted) throw new AppError('upstream_timeout', 'The client closed the request.');
      signal?.addEventListener('abort', onCallerGone, { once: true });
      const timer = setTimeout(() => controller.abort(new AppError('upstream_timeout', 'The platform CDN did not answer in time.')), deps.headersTimeoutMs);
      const headers: Record<string, string> = {
        accept: '*/*',
        // Bytes as stored: a compressed answer would not match Content-Length or Range offsets.
        'accept-encoding': 'identity',
        'sec-fetch-dest': 'video',
        'sec-fetch-mode': 'no-cors',
        'sec-fetch-site': 'same-site',
      };
      for (const [name, value] of Object.entries(request.headers)) {
        // The owning jar sends its own cookies (all of them, as the browser would).
        if (name.toLowerCase() === 'cookie' && ownsCookie) continue;
        headers[name.toLowerCase()] = value;
      }
      if (request.range) headers.range = request.range;
      try {
        const response = await stream(request.url, { headers, signal: controller.signal, timeoutMs: TRANSFER_TIMEOUT_MS });
        const body = response.body;
        let aborted = false;
        return {
          status: response.status,
          headers: response.headers,
          body,
          abort() {
            if (aborted) return;
            aborted = true;
            signal?.removeEventListener('abort', onCallerGone);
            // Cancelling the body closes the connection; the abort alone does not once headers are in.
            body?.cancel().catch(() => undefined);
            controller.abort();
          },
        };
      } catch (error) {
        signal?.removeEventListener('abort', onCallerGone);
        if (controller.signal.reason instanceof AppError) throw controller.signal.reason;
        if (signal?.aborted) throw new AppError('upstream_timeout', 'The client closed the request.', { cause: error });
        if (connectFailure(error)) throw new AppError('platform_unreachable', 'The platform CDN cannot be reached.', { cause: error, retryAfterSeconds: 5 });
        throw new AppError('upstream_error', 'The platform CDN failed to answer.', { cause: error, retryAfterSeconds: 5 });
      } finally {
        clearTimeout(timer);
      }
    },
  };
}
