// The one browser reelay presents natively: User-Agent, client hints and impit's TLS/HTTP2 profile
// come from here, and every kind of request gets the headers that browser would send for it.
import type { RequestKind } from './endpoints.ts';

/** Chrome on Windows, the platform's most common desktop client. Move all three together. */
export const CHROME_MAJOR = 146;
export const BROWSER = Object.freeze({
  /** impit's emulation profile for TLS and HTTP/2 (the newest Chrome impit ships). */
  impitProfile: 'chrome' as const,
  userAgent: `Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${CHROME_MAJOR}.0.0.0 Safari/537.36`,
  clientHints: {
    'sec-ch-ua': `"Chromium";v="${CHROME_MAJOR}", "Not-A.Brand";v="24", "Google Chrome";v="${CHROME_MAJOR}"`,
    'sec-ch-ua-mobile': '?0',
    'sec-ch-ua-platform': '"Windows"',
  },
});

/** An empty value makes impit drop a header its navigation profile would add. */
const DROP = '';

/**
 * Headers by kind of request: a JSON API call looks like the page's own `fetch`, a page load like
 * a navigation, a subtitle file like a `<track>` load. `referer` is the page a person would be on.
 */
export function headersForKind(kind: RequestKind, referer: string, origin: string): Record<string, string> {
  const common = { 'user-agent': BROWSER.userAgent, ...BROWSER.clientHints, referer };
  if (kind === 'page') {
    return { ...common, 'sec-fetch-mode': 'navigate', 'sec-fetch-dest': 'document', 'sec-fetch-site': 'same-origin', 'sec-fetch-user': '?1' };
  }
  if (kind === 'raw') {
    return { ...common, accept: '*/*', 'sec-fetch-mode': 'cors', 'sec-fetch-dest': 'track', 'sec-fetch-site': 'cross-site', 'sec-fetch-user': DROP, 'upgrade-insecure-requests': DROP };
  }
  return {
    ...common,
    accept: 'application/json, text/plain, */*',
    origin,
    'sec-fetch-mode': 'cors',
    'sec-fetch-dest': 'empty',
    'sec-fetch-site': 'same-origin',
    'sec-fetch-user': DROP,
    'upgrade-insecure-requests': DROP,
    priority: 'u=1, i',
  };
}
