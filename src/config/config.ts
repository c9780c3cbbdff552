// Builds the frozen service configuration from environment variables and command-line flags.
// Flags win over their REELAY_* twins; a bad value stops the start with the variable named.
import { isIP } from 'node:net';
import { z } from 'zod';
import { parseDurationMs } from '../watches/duration.ts';
import { DEFAULT_SIGNING_PROFILE, SIGNING_PROFILE_NAMES, type SigningProfileName } from '../upstream/signing/profiles.ts';

export type Config = Readonly<{
  host: string;
  port: number;
  mcpPort: number;
  dataDir: string;
  publicUrl: string;
  mcpPublicUrl: string;
  databaseUrl: string | undefined;
  redisUrl: string | undefined;
  logLevel: string;
  platform: Readonly<{
    webOrigin: string;
    webcastOrigin: string;
    proxies: readonly string[];
    /** A file of proxy URLs, one per line (`#` comments allowed), read at start. */
    proxiesFile: string | undefined;
    identityCount: number;
    identityRatePerSecond: number;
    requestTimeoutMs: number;
    maxConcurrent: number;
    /** `auto` is `fallback` when a Chromium is found and `off` otherwise. */
    browser: 'auto' | 'off' | 'fallback' | 'always';
    /** Which signature parameters native API calls carry (src/upstream/signing/profiles.ts). */
    signing: SigningProfileName;
    chromiumPath: string | undefined;
  }>;
  rateLimit: Readonly<{ points: number; durationSeconds: number }>;
  cacheMaxBytes: number;
  cacheTtlFactor: number;
  requestDeadlineMs: number;
  shutdownTimeoutMs: number;
  allowedOrigins: readonly string[];
  allowedHosts: readonly string[];
  accessTokenTtlSeconds: number;
  /** Media bytes one API key may download per hour (`/media`), shared by all nodes through Redis. */
  mediaBytesPerHour: number;
  /** Lifetime, and upper bound, of signed media links (`/media-links`). */
  mediaLinkTtlSeconds: number;
  /** Proxies whose X-Forwarded-For gives the client address: a hop count or addresses/CIDRs. */
  trustProxy: number | readonly string[] | undefined;
  /** Watches and their webhooks (docs/watches.md). */
  watches: Readonly<{
    /** Whether this node runs due watches and deliveries (an API-only node sets it off). */
    scheduler: boolean;
    minIntervalMs: number;
    retentionMs: number;
    maxPerKey: number;
    /** Consecutive failed runs after which a watch is paused. */
    pauseAfter: number;
    /** Key prefix of the BullMQ queues in Redis (scale-out): nodes with one prefix share the watches' timetable. */
    queuePrefix: string;
    allowPrivateWebhooks: boolean;
    webhookTimeoutMs: number;
    webhookRetryBaseMs: number;
    webhookRetryForMs: number;
  }>;
}>;

/** Flag name → environment variable. Every command-line flag has one. */
export const ENV_NAMES = {
  host: 'REELAY_HOST',
  port: 'REELAY_PORT',
  mcpPort: 'REELAY_MCP_PORT',
  dataDir: 'REELAY_DATA_DIR',
  publicUrl: 'REELAY_PUBLIC_URL',
  mcpPublicUrl: 'REELAY_MCP_PUBLIC_URL',
  databaseUrl: 'REELAY_DATABASE_URL',
  redisUrl: 'REELAY_REDIS_URL',
  logLevel: 'REELAY_LOG_LEVEL',
  webOrigin: 'REELAY_PLATFORM_WEB_ORIGIN',
  webcastOrigin: 'REELAY_PLATFORM_WEBCAST_ORIGIN',
  proxies: 'REELAY_PROXIES',
  proxiesFile: 'REELAY_PROXIES_FILE',
  identityCount: 'REELAY_IDENTITIES',
  identityRatePerSecond: 'REELAY_IDENTITY_RPS',
  requestTimeoutMs: 'REELAY_UPSTREAM_TIMEOUT_MS',
  maxConcurrent: 'REELAY_UPSTREAM_CONCURRENCY',
  browser: 'REELAY_BROWSER',
  signing: 'REELAY_SIGNING',
  chromiumPath: 'REELAY_CHROMIUM_PATH',
  rateLimitPerMinute: 'REELAY_RATE_LIMIT_PER_MINUTE',
  cacheMaxBytes: 'REELAY_CACHE_MAX_BYTES',
  cacheTtlFactor: 'REELAY_CACHE_TTL_FACTOR',
  requestDeadlineMs: 'REELAY_REQUEST_DEADLINE_MS',
  shutdownTimeoutMs: 'REELAY_SHUTDOWN_TIMEOUT_MS',
  allowedOrigins: 'REELAY_ALLOWED_ORIGINS',
  allowedHosts: 'REELAY_ALLOWED_HOSTS',
  accessTokenTtlSeconds: 'REELAY_ACCESS_TOKEN_TTL_SECONDS',
  trustProxy: 'REELAY_TRUST_PROXY',
  mediaBytesPerHour: 'REELAY_MEDIA_BYTES_PER_HOUR',
  mediaLinkTtlSeconds: 'REELAY_MEDIA_LINK_TTL_SECONDS',
  watchScheduler: 'REELAY_WATCH_SCHEDULER',
  watchMinInterval: 'REELAY_WATCH_MIN_INTERVAL',
  watchRetention: 'REELAY_WATCH_RETENTION',
  watchMaxPerKey: 'REELAY_WATCH_MAX_PER_KEY',
  watchPauseAfter: 'REELAY_WATCH_PAUSE_AFTER',
  watchQueuePrefix: 'REELAY_WATCH_QUEUE_PREFIX',
  webhookAllowPrivate: 'REELAY_WEBHOOK_ALLOW_PRIVATE',
  webhookTimeout: 'REELAY_WEBHOOK_TIMEOUT',
  webhookRetryBase: 'REELAY_WEBHOOK_RETRY_BASE',
  webhookRetryFor: 'REELAY_WEBHOOK_RETRY_FOR',
} as const;

export type ConfigInput = Partial<Record<keyof typeof ENV_NAMES, string>>;

const port = z.coerce.number().int().min(0).max(65535);
const positiveInt = z.coerce.number().int().min(1);
const url = z.url({ protocol: /^https?$/ }).transform((value) => value.replace(/\/+$/, ''));
const list = z.string().transform((value) =>
  value
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item.length > 0),
);

const duration = z.string().transform((value, ctx) => {
  const ms = parseDurationMs(value);
  if (ms === undefined) ctx.addIssue({ code: 'custom', message: 'must be a whole number with a unit: ms, s, m, h or d (e.g. 15m)' });
  return ms ?? 0;
});
const flag = z.enum(['0', '1', 'true', 'false', 'on', 'off']).transform((value) => value === '1' || value === 'true' || value === 'on');

const PROXY_SCHEMES = new Set(['http:', 'https:', 'socks5:', 'socks5h:']);

/** A proxy URL impit can use: http(s) or socks5(h), a host, nothing after the authority. */
export function isProxyUrl(text: string): boolean {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return false;
  }
  return PROXY_SCHEMES.has(url.protocol) && url.hostname !== '' && (url.pathname === '' || url.pathname === '/') && url.search === '' && url.hash === '';
}

// A bad entry would otherwise be dropped and reelay would connect directly, exposing its own
// address: refuse to start instead. Entries may carry credentials, so the message names the position.
const proxyList = list.superRefine((entries, ctx) => {
  entries.forEach((entry, index) => {
    if (!isProxyUrl(entry)) ctx.addIssue({ code: 'custom', message: `entry ${index + 1} is not a proxy URL (http://, https://, socks5:// or socks5h:// with a host)` });
  });
});

/** An IPv4/IPv6 address, optionally with a /prefix of the right size. */
function isAddressOrCidr(text: string): boolean {
  const [address, prefix, extra] = text.split('/');
  const family = isIP(address ?? '');
  if (family === 0 || extra !== undefined) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128);
}

// `true` would let any client choose its own address by sending X-Forwarded-For, which defeats the
// per-address limits: only a hop count or the proxies' own addresses are accepted.
const trustProxy = z.union([
  z.string().regex(/^\d+$/).transform(Number).pipe(z.number().int().min(1).max(10)),
  list.pipe(
    z
      .array(z.string())
      .min(1)
      .refine((entries) => entries.every(isAddressOrCidr), 'must be a hop count (1-10) or a comma-separated list of proxy addresses or CIDRs'),
  ),
]);

/** REELAY_TRUST_PROXY as Fastify's trustProxy option: the listed proxies, or the nearest N hops. */
export function trustProxyOption(value: number | readonly string[]): string[] | ((address: string, hop: number) => boolean) {
  return typeof value === 'number' ? (_address, hop) => hop < value : [...value];
}

function read<T>(schema: z.ZodType<T>, name: keyof typeof ENV_NAMES, value: string | undefined, fallback: T): T {
  if (value === undefined || value === '') return fallback;
  const result = schema.safeParse(value);
  if (!result.success) {
    throw new Error(`Invalid ${ENV_NAMES[name]} (--${kebab(name)}): ${result.error.issues[0]?.message ?? 'bad value'}`);
  }
  return result.data;
}

function kebab(name: string): string {
  return name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
}

/** Merges flags over environment: `flags` uses the keys of ENV_NAMES. */
export function configInputFrom(env: Record<string, string | undefined>, flags: ConfigInput): ConfigInput {
  const input: ConfigInput = {};
  for (const [key, envName] of Object.entries(ENV_NAMES) as [keyof typeof ENV_NAMES, string][]) {
    input[key] = flags[key] ?? env[envName];
  }
  return input;
}

export function parseConfig(input: ConfigInput): Config {
  const host = read(z.string().min(1), 'host', input.host, '127.0.0.1');
  const restPort = read(port, 'port', input.port, 8080);
  const mcpPort = read(port, 'mcpPort', input.mcpPort, 8081);
  const perMinute = read(positiveInt, 'rateLimitPerMinute', input.rateLimitPerMinute, 600);
  // A wildcard bind address is no address to hand out; loopback is what a local user can reach.
  const publicHost = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host;
  const config: Config = {
    host,
    port: restPort,
    mcpPort,
    dataDir: read(z.string().min(1), 'dataDir', input.dataDir, './data'),
    publicUrl: read(url, 'publicUrl', input.publicUrl, `http://${publicHost}:${restPort}`),
    mcpPublicUrl: read(url, 'mcpPublicUrl', input.mcpPublicUrl, `http://${publicHost}:${mcpPort}`),
    databaseUrl: read(z.string().regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL'), 'databaseUrl', input.databaseUrl, undefined as string | undefined),
    redisUrl: read(z.string().regex(/^rediss?:\/\//, 'must be a redis:// URL'), 'redisUrl', input.redisUrl, undefined as string | undefined),
    logLevel: read(z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']), 'logLevel', input.logLevel, 'info'),
    platform: {
      webOrigin: read(url, 'webOrigin', input.webOrigin, 'https://www.tiktok.com'),
      webcastOrigin: read(url, 'webcastOrigin', input.webcastOrigin, 'https://webcast.tiktok.com'),
      proxies: read(proxyList, 'proxies', input.proxies, []),
      proxiesFile: read(z.string().min(1), 'proxiesFile', input.proxiesFile, undefined as string | undefined),
      identityCount: read(positiveInt.max(64), 'identityCount', input.identityCount, 4),
      identityRatePerSecond: read(z.coerce.number().positive(), 'identityRatePerSecond', input.identityRatePerSecond, 2),
      requestTimeoutMs: read(positiveInt, 'requestTimeoutMs', input.requestTimeoutMs, 10_000),
      maxConcurrent: read(positiveInt, 'maxConcurrent', input.maxConcurrent, 16),
      browser: read(z.enum(['auto', 'off', 'fallback', 'always']), 'browser', input.browser, 'auto'),
      signing: read(z.enum(SIGNING_PROFILE_NAMES as [SigningProfileName, ...SigningProfileName[]]), 'signing', input.signing, DEFAULT_SIGNING_PROFILE),
      chromiumPath: read(z.string().min(1), 'chromiumPath', input.chromiumPath, undefined as string | undefined),
    },
    rateLimit: { points: perMinute, durationSeconds: 60 },
    cacheMaxBytes: read(positiveInt, 'cacheMaxBytes', input.cacheMaxBytes, 256 * 1024 * 1024),
    cacheTtlFactor: read(z.coerce.number().min(0), 'cacheTtlFactor', input.cacheTtlFactor, 1),
    requestDeadlineMs: read(positiveInt, 'requestDeadlineMs', input.requestDeadlineMs, 30_000),
    shutdownTimeoutMs: read(positiveInt, 'shutdownTimeoutMs', input.shutdownTimeoutMs, 10_000),
    allowedOrigins: read(list, 'allowedOrigins', input.allowedOrigins, []),
    allowedHosts: read(list, 'allowedHosts', input.allowedHosts, []),
    accessTokenTtlSeconds: read(positiveInt, 'accessTokenTtlSeconds', input.accessTokenTtlSeconds, 3600),
    trustProxy: read(trustProxy, 'trustProxy', input.trustProxy, undefined as number | readonly string[] | undefined),
    mediaBytesPerHour: read(positiveInt, 'mediaBytesPerHour', input.mediaBytesPerHour, 10 * 1024 ** 3),
    // Links outliving a day would outlive the previous signing key (cursor-keys.ts).
    mediaLinkTtlSeconds: read(positiveInt.max(86_400), 'mediaLinkTtlSeconds', input.mediaLinkTtlSeconds, 3600),
    watches: {
      scheduler: read(flag, 'watchScheduler', input.watchScheduler, true),
      minIntervalMs: read(duration, 'watchMinInterval', input.watchMinInterval, 60_000),
      retentionMs: read(duration, 'watchRetention', input.watchRetention, 90 * 86_400_000),
      maxPerKey: read(positiveInt, 'watchMaxPerKey', input.watchMaxPerKey, 100),
      pauseAfter: read(positiveInt, 'watchPauseAfter', input.watchPauseAfter, 10),
      queuePrefix: read(z.string().regex(/^[A-Za-z0-9_.-]{1,64}$/, 'must be 1-64 letters, digits, _ . or -'), 'watchQueuePrefix', input.watchQueuePrefix, 'reelay'),
      allowPrivateWebhooks: read(flag, 'webhookAllowPrivate', input.webhookAllowPrivate, false),
      webhookTimeoutMs: read(duration, 'webhookTimeout', input.webhookTimeout, 10_000),
      webhookRetryBaseMs: read(duration, 'webhookRetryBase', input.webhookRetryBase, 5_000),
      webhookRetryForMs: read(duration, 'webhookRetryFor', input.webhookRetryFor, 24 * 3_600_000),
    },
  };
  return Object.freeze(config);
}
