// How requests get their signature: callers hand over a URL and get it back signed, so a newer
// scheme (X-Gnarly, a browser-backed signer) can replace X-Bogus without touching them.
import { signXBogus } from './x-bogus.ts';

export interface Signer {
  /** Returns a copy of `url` with its signature appended as the last query parameter(s). */
  sign(url: URL, userAgent: string, nowSeconds: number): URL;
}

/** Signs the query exactly as it will be sent (the WHATWG serialisation a browser uses, §5.2). */
export function createXBogusSigner(): Signer {
  return {
    sign(url, userAgent, nowSeconds) {
      const signed = new URL(url);
      const query = signed.search.startsWith('?') ? signed.search.slice(1) : signed.search;
      const value = signXBogus(query, userAgent, nowSeconds);
      signed.search = query === '' ? `X-Bogus=${value}` : `${query}&X-Bogus=${value}`;
      return signed;
    },
  };
}
