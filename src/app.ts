// createServices/createApp: wires config, stores, cache, platform client, operations and both
// listeners. Nothing happens at import time; main.ts and the tests decide what to start.
import { readFile } from 'node:fs/promises';
import type { Redis } from 'ioredis';
import pino, { type Logger } from 'pino';
import type { FastifyInstance } from 'fastify';
import { isProxyUrl, type Config } from './config/config.ts';
import { openStore, createKeyService, createStoreGuard, createUsageRecorder, type StoreGuard } from './storage/index.ts';
import type { KeyService } from './storage/keys.ts';
import type { UsageRecorder } from './storage/usage-recorder.ts';
import type { Store } from './storage/types.ts';
import { createResponseCache } from './cache/response-cache.ts';
import type { RateLimiter } from './cache/rate-limit.ts';
import type { RedisLink } from './cache/redis-link.ts';
import { scalePolicies } from './cache/policies.ts';
import { createPlatformClient, type PlatformClientDeps, type PlatformClientHandle } from './upstream/client.ts';
import { defaultUpstreamConfig, resolveUpstreamConfig } from './upstream/config.ts';
import { findChromium } from './upstream/transport/browser.ts';
import type { BrowserSettings } from './upstream/transport/fallback.ts';
import { createExecutor, RENDERED_BYTES_MAX, type Executor } from './operations/execute.ts';
import { createStoredCursorSigner } from './operations/cursor-keys.ts';
import { OPERATIONS } from './operations/registry.ts';
import { createHttpServer, socialNsUrl } from './http/server.ts';
import { cacheLayerOf, createMetrics, type Metrics } from './http/metrics.ts';
import type { CoalescerHooks } from './cache/coalescer.ts';
import { currentRequest, requestIdMixin } from './request-context.ts';
import { createMcpServer } from './mcp/server.ts';
import type { MediaRouteDeps } from './http/media-routes.ts';
import { createMediaService } from './media/service.ts';
import { createMediaLinks } from './media/links.ts';
import { createByteBudget } from './media/budget.ts';
import { createRegistrationLimits } from './oauth/registration-limits.ts';
import { checkReadiness, createSharedState, type Readiness } from './stores.ts';
import { createWatches } from './watches/wiring.ts';
import type { WatchService } from './watches/service.ts';
import { registerWatchRoutes } from './http/watch-routes.ts';

/** Never log these: API keys, OAuth tokens, identity cookies. */
export const LOG_REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'res.headers["set-cookie"]',
  '*.authorization',
  '*.cookie',
  '*.key',
  '*.token',
  '*.access_token',
  '*.refresh_token',
  '*.code',
];

/**
 * Logs go to stdout without blocking: pino's default destination writes each line with a
 * synchronous write(2), which profiles showed as the largest single cost of logging a request
 * (about a tenth of the service's CPU on a cold video). Asynchronous writes batch the lines that
 * arrive while one is in flight; pino flushes what is pending on exit, crashes included.
 */
export function createLogger(config: Pick<Config, 'logLevel'>, destination?: pino.DestinationStream): Logger {
  // The mixin puts the id of the request being served on every line, platform calls included.
  return pino(
    { level: config.logLevel, redact: { paths: LOG_REDACT_PATHS, censor: '[redacted]' }, mixin: requestIdMixin },
    destination ?? pino.destination({ dest: 1, sync: false }),
  );
}

export type Services = {
  config: Config;
  logger: Logger;
  store: Store;
  keys: KeyService;
  usage: UsageRecorder;
  client: ConfiguredClient;
  executor: Executor;
  /** Media downloads: file resolution and streaming, signed links, the per-key byte budget. */
  media: MediaRouteDeps;
  rateLimiter: RateLimiter;
  metrics: Metrics;
  redis: Redis | undefined;
  /** Redis and what this node knows of its health; undefined without Redis. */
  redisLink: RedisLink | undefined;
  /** What this node knows of its database's health (API key checks go through it). */
  databaseGuard: StoreGuard;
  /** Bytes held by the in-memory response cache (with Redis: its fallback while Redis is down). */
  cacheSizeBytes(): number;
  /** Watches and their webhooks; the scheduler starts with the listeners (createApp). */
  watches: WatchService;
  /** Which stores answer now; resolves within a second, never rejects. */
  ready(): Promise<Readiness>;
  close(): Promise<void>;
};

export type ServicesOptions = {
  logger?: Logger;
  /** Wall clock of the response cache (freshness and ages); tests move it instead of waiting. */
  clock?: { now(): number };
  /** Told of every finished watch run and webhook delivery (tests wait on these instead of sleeping). */
  watchEvents?(event: { kind: 'run' | 'delivery'; id: string }): void;
};

/** Proxy URLs from REELAY_PROXIES and the lines of REELAY_PROXIES_FILE (blank lines and # comments skipped). */
export async function loadProxies(platform: Config['platform']): Promise<string[]> {
  if (!platform.proxiesFile) return [...platform.proxies];
  let text: string;
  try {
    text = await readFile(platform.proxiesFile, 'utf8');
  } catch (error) {
    throw new Error(`Cannot read REELAY_PROXIES_FILE ${platform.proxiesFile}: ${(error as Error).message}`);
  }
  const proxies = [...platform.proxies];
  for (const [index, raw] of text.split(/\r?\n/).entries()) {
    const line = raw.trim();
    if (!line || line.startsWith('#')) continue;
    // Proxy URLs may carry credentials: name the line, never echo it.
    if (!isProxyUrl(line)) throw new Error(`REELAY_PROXIES_FILE line ${index + 1} is not a proxy URL`);
    proxies.push(line);
  }
  return proxies;
}

export type ConfiguredClient = PlatformClientHandle;

/** The platform client as the configuration asks: proxies (list and file), browser, signing, limits. */
export async function createConfiguredClient(
  platform: Config['platform'],
  logger: Logger,
  extra: Pick<PlatformClientDeps, 'identityHealth' | 'onOutcome' | 'onIdentityRetired'> = {},
): Promise<ConfiguredClient> {
  const proxies = await loadProxies(platform);
  const browser = await resolveBrowser(platform, logger);
  return createPlatformClient({
    config: resolveUpstreamConfig({
      browser,
      signing: platform.signing,
      webOrigin: platform.webOrigin,
      webcastOrigin: platform.webcastOrigin,
      proxies,
      identityCount: platform.identityCount,
      identityRatePerSecond: platform.identityRatePerSecond,
      requestTimeoutMs: platform.requestTimeoutMs,
      maxConcurrent: platform.maxConcurrent,
    }),
    logger,
    ...extra,
  });
}

function databasePassword(databaseUrl: string | undefined): string {
  try {
    return databaseUrl ? decodeURIComponent(new URL(databaseUrl).password) : '';
  } catch {
    return '';
  }
}

/** Everything but the listeners: used by `serve`, `demo` and `export`. */
export async function createServices(config: Config, options: ServicesOptions = {}): Promise<Services> {
  const logger = options.logger ?? createLogger(config);
  // One budget for everything this node caches: the projection memo takes an eighth (at most 32 MiB).
  const renderedMaxBytes = Math.min(RENDERED_BYTES_MAX, Math.floor(config.cacheMaxBytes / 8));
  const metrics = createMetrics({ defaultMetrics: true });
  const shared = await createSharedState(
    { ...config, cacheMaxBytes: Math.max(1, config.cacheMaxBytes - renderedMaxBytes) },
    logger,
    coalescingHooks(metrics, logger),
  );
  let store: Store;
  try {
    store = await openStore({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, onError: (error) => logger.debug({ err: error.message }, 'idle database connection failed') });
  } catch (error) {
    shared.close();
    throw error;
  }
  const databaseGuard = createStoreGuard({ logger, secrets: [databasePassword(config.databaseUrl)] });
  const keys = createKeyService({ store, guard: databaseGuard });
  // Usage counts wait in memory while the database is down (bounded; what overflows is counted and logged).
  const usage = createUsageRecorder({
    store,
    onOutage: (error) => logger.warn({ err: (error as Error).message }, 'usage counts cannot be written: kept in memory until the database returns'),
    onRecovery: ({ droppedRequests }) => logger.info({ droppedRequests }, 'usage counts written again'),
  });
  const cache = createResponseCache({
    store: shared.byteStore,
    coalescer: shared.coalescer,
    logger,
    ...(options.clock ? { clock: options.clock } : {}),
    onEvent: (event) => metrics.observeCache(event.status),
    onLookup: (lookup) => metrics.observeCacheLookup(lookup.key, lookup.hit),
  });
  const client = await createConfiguredClient(config.platform, logger, {
    // Shared so every node prefers the identities the platform still serves.
    ...(shared.identityHealth ? { identityHealth: shared.identityHealth } : {}),
    onOutcome: (e) => metrics.observeUpstream(e.endpoint, e.outcome, e.durationMs / 1000, e.route),
    onIdentityRetired: (reason) => metrics.observeIdentityRetired(reason),
  });
  metrics.watchUpstream(client);
  // Cursors are sealed with the key the nodes share through the database.
  const cursors = await createStoredCursorSigner(store);
  const operationDeps = {
    client,
    cursors,
    cache,
    policies: scalePolicies(config.cacheTtlFactor),
    config: { publicBaseUrl: config.publicUrl, socialNsUrl: socialNsUrl(config.publicUrl), webOrigin: config.platform.webOrigin },
  };
  const executor = createExecutor(operationDeps, { renderedMaxBytes });
  const media: MediaRouteDeps = {
    service: createMediaService({ operations: operationDeps, fetcher: { open: client.openMedia } }),
    // Media links are sealed like cursors: with the key the nodes share through the database.
    links: createMediaLinks({ signer: cursors, publicUrl: config.publicUrl }),
    budget: createByteBudget({
      bytesPerWindow: config.mediaBytesPerHour,
      windowSeconds: 3600,
      ...(shared.link ? { redis: shared.link.client, available: shared.link.isUp, onRedisFailure: (error: unknown) => shared.link?.reportFailure(error) } : {}),
    }),
  };
  const watches = await createWatches({ config, executor, operationDeps, logger, redis: shared.link, keys, ...(options.watchEvents ? { onSettled: options.watchEvents } : {}) });
  return {
    config,
    logger,
    store,
    keys,
    usage,
    client,
    executor,
    media,
    rateLimiter: shared.rateLimiter,
    metrics,
    redis: shared.link?.client,
    redisLink: shared.link,
    databaseGuard,
    watches,
    cacheSizeBytes: () => shared.memoryStore.sizeBytes(),
    ready: () => checkReadiness(store, shared.link),
    async close() {
      await watches.close();
      cursors.close();
      await usage.close();
      await client.close();
      await cache.close();
      await store.close();
      shared.close();
    },
  };
}

/**
 * Coalescing seen from the requests: the fetch runs in the context of the request that started it
 * (so its platform log lines carry that request's id), and a request that joins it records whose
 * fetch it waited on (`coalescedWith` on its completion line) and is counted.
 */
function coalescingHooks(metrics: Metrics, logger: Logger): CoalescerHooks {
  return {
    onStart: () => currentRequest()?.requestId,
    onJoin: ({ key, scope, startedBy }) => {
      metrics.observeCoalesced(key, scope);
      const request = currentRequest();
      if (request !== undefined && startedBy !== undefined && startedBy !== request.requestId) request.coalescedWith ??= startedBy;
      if (logger.isLevelEnabled('debug')) {
        logger.debug({ layer: cacheLayerOf(key), scope, ...(startedBy === undefined ? {} : { coalescedWith: startedBy }) }, 'joined a fetch already in flight');
      }
    },
  };
}

export type App = { services: Services; rest: FastifyInstance; mcp: FastifyInstance; close(): Promise<void> };

/**
 * A keep-alive connection whose request was in flight when closing began would hold the listener
 * open after its answer (Node only closes idle connections at close): answers sent while closing
 * ask the client to close, so shutdown ends as soon as the last one is written.
 */
function closeConnectionsWhileClosing(app: FastifyInstance): void {
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  app.addHook('onSend', async (_request, reply, payload) => {
    if (closing) reply.header('connection', 'close');
    return payload;
  });
}

/** Both listeners over one set of services (not yet listening). */
export function createApp(services: Services): App {
  const { config, logger } = services;
  const rest = createHttpServer({
    config,
    executor: services.executor,
    operations: OPERATIONS,
    keys: services.keys,
    rateLimiter: services.rateLimiter,
    usage: services.usage,
    metrics: services.metrics,
    ready: services.ready,
    logger: logger.child({ listener: 'rest' }),
    media: services.media,
  });
  const mcp = createMcpServer({
    executor: services.executor,
    operations: OPERATIONS,
    keys: services.keys,
    store: services.store,
    usage: services.usage,
    rateLimiter: services.rateLimiter,
    watches: services.watches,
    logger: logger.child({ listener: 'mcp' }),
    config: {
      publicUrl: config.mcpPublicUrl,
      restBaseUrl: config.publicUrl,
      allowedOrigins: [...config.allowedOrigins],
      allowedHosts: [...config.allowedHosts],
      accessTokenTtlSeconds: config.accessTokenTtlSeconds,
      refreshTokenTtlSeconds: 30 * 24 * 3600,
      codeTtlSeconds: 60,
      serviceName: 'reelay',
      requestDeadlineMs: config.requestDeadlineMs,
      ...(config.trustProxy === undefined ? {} : { trustProxy: config.trustProxy }),
    },
    registrationLimits: createRegistrationLimits(services.redis ? { redis: services.redis } : {}),
  });
  registerWatchRoutes(rest, { keys: services.keys, rateLimiter: services.rateLimiter, config, watches: services.watches });
  services.watches.start();
  closeConnectionsWhileClosing(rest);
  closeConnectionsWhileClosing(mcp);
  return {
    services,
    rest,
    mcp,
    async close() {
      await Promise.allSettled([rest.close(), mcp.close()]);
      await services.close();
    },
  };
}

/** The browser transport's settings: `auto` uses a Chromium when one is found, and says so. */
async function resolveBrowser(platform: Config['platform'], logger: Logger): Promise<BrowserSettings> {
  const defaults = defaultUpstreamConfig.browser;
  if (platform.browser === 'off') return { ...defaults, mode: 'off' };
  const executablePath = await findChromium(platform.chromiumPath);
  if (!executablePath) {
    const where = platform.chromiumPath ?? 'the usual paths (/usr/bin/chromium…)';
    if (platform.browser === 'always') throw new Error(`REELAY_BROWSER=always but no Chromium at ${where}: install it (apt-get install chromium) or set REELAY_CHROMIUM_PATH`);
    logger.info({ browser: 'off' }, `no Chromium found at ${where}: the browser fallback is off (apt-get install chromium to enable it)`);
    return { ...defaults, mode: 'off' };
  }
  const mode = platform.browser === 'auto' ? 'fallback' : platform.browser;
  logger.info({ browser: mode, chromium: executablePath }, `browser transport: ${mode}, Chromium at ${executablePath}`);
  return { ...defaults, mode, executablePath };
}
