// The query every web API call carries (PLATFORM.md §1), in the order the web app sends it:
// common browser params, then the endpoint's own, then msToken; the signer appends X-Bogus last.

export type BrowserName = 'chrome' | 'firefox';

/** What the browser would report about itself; must agree with the User-Agent actually sent. */
export type BrowserProfile = {
  name: BrowserName;
  userAgent: string;
  platform: string;
  os: string;
  screenWidth: number;
  screenHeight: number;
};

export type QueryContext = {
  profile: BrowserProfile;
  deviceId: string;
  verifyFp: string;
  region: string;
  language: string;
  tzName: string;
  historyLen: number;
};

export type QueryParams = Array<[string, string]>;

/** Derives platform/os from the UA the HTTP client really sends. */
export function profileFromUserAgent(name: BrowserName, userAgent: string): BrowserProfile {
  const os = /Windows/.test(userAgent) ? 'windows' : /Mac OS X|Macintosh/.test(userAgent) ? 'mac' : 'linux';
  const platform = os === 'windows' ? 'Win32' : os === 'mac' ? 'MacIntel' : 'Linux x86_64';
  return { name, userAgent, platform, os, screenWidth: 1920, screenHeight: 1080 };
}

export function commonWebParams(ctx: QueryContext): QueryParams {
  const { profile } = ctx;
  return [
    ['aid', '1988'],
    ['app_name', 'tiktok_web'],
    ['channel', 'tiktok_web'],
    ['device_platform', 'web_pc'],
    ['app_language', ctx.language],
    ['browser_language', `${ctx.language}-${ctx.region}`],
    ['browser_name', 'Mozilla'],
    ['browser_online', 'true'],
    ['browser_platform', profile.platform],
    // navigator.appVersion: the UA without its "Mozilla/" product token.
    ['browser_version', profile.userAgent.replace(/^Mozilla\//, '')],
    ['cookie_enabled', 'true'],
    ['data_collection_enabled', 'true'],
    ['device_id', ctx.deviceId],
    ['focus_state', 'true'],
    ['history_len', String(ctx.historyLen)],
    ['is_fullscreen', 'false'],
    ['is_page_visible', 'true'],
    ['language', ctx.language],
    ['os', profile.os],
    ['priority_region', ctx.region],
    ['referer', ''],
    ['region', ctx.region],
    ['root_referer', ''],
    ['screen_height', String(profile.screenHeight)],
    ['screen_width', String(profile.screenWidth)],
    ['tz_name', ctx.tzName],
    ['user_is_login', 'false'],
    ['verifyFp', ctx.verifyFp],
    ['webcast_language', ctx.language],
  ];
}

// Only what would break the query's structure is escaped here; the URL parser then applies the
// browser's own query escaping (space, quotes, <, >, non-ASCII), leaving ( ) / : , literal.
function escapeComponent(value: string): string {
  return value.replace(/[%&+#]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

export function serializeQuery(params: QueryParams): string {
  return params.map(([k, v]) => `${escapeComponent(k)}=${escapeComponent(v)}`).join('&');
}

/** Full unsigned URL of a web API call: common params, endpoint params, then msToken. */
export function buildWebApiUrl(
  origin: string,
  path: string,
  ctx: QueryContext,
  endpointParams: QueryParams,
  msToken: string | undefined,
): URL {
  const url = new URL(path, origin);
  url.search = serializeQuery([...commonWebParams(ctx), ...endpointParams, ['msToken', msToken ?? '']]);
  return url;
}

/** The common params and the endpoint's own, without msToken or signature (PLATFORM.md §5.2). */
export function buildUnsignedWebUrl(origin: string, path: string, ctx: QueryContext, endpointParams: QueryParams): URL {
  const url = new URL(path, origin);
  url.search = serializeQuery([...commonWebParams(ctx), ...endpointParams]);
  return url;
}

/** URL with exactly the given params (live endpoints take only their own, PLATFORM.md §2.11). */
export function buildPlainUrl(origin: string, path: string, params: QueryParams): URL {
  const url = new URL(path, origin);
  url.search = serializeQuery(params);
  return url;
}
