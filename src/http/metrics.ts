// Prometheus metrics on a registry of the app's own (no global state): requests, latency, platform
// outcomes and routes, breakers, identities, cache hits and misses, and coalescing. docs/metrics.md.
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/** What the platform client reports at each scrape (see upstream/client.ts). */
export type UpstreamSource = {
  breakerStates(): Array<{ endpoint: string; state: 0 | 1 | 2 }>;
  identityStates(): Promise<{ healthy: number; degraded: number; bootstrapping: number }>;
};

export type Metrics = {
  observeRequest(route: string, status: number, seconds: number): void;
  /** One platform request: its endpoint, classified outcome, time, and the route it took (signed, unsigned, page, browser…). */
  observeUpstream(endpoint: string, outcome: string, seconds: number, route?: string): void;
  observeCache(status: string): void;
  /** One cache lookup by key (`op:` answers, `up:` platform data): a hit or a miss. */
  observeCacheLookup(key: string, hit: boolean): void;
  /** A request that joined a fetch already in flight, in this process or on another node. */
  observeCoalesced(key: string, scope: 'process' | 'cluster'): void;
  observeIdentityRetired(reason: string): void;
  /** Where breaker states and identity counts are read at each scrape. */
  watchUpstream(source: UpstreamSource): void;
  contentType: string;
  render(): Promise<string>;
};

/** Which cache a key belongs to: whole answers of operations, or the platform reads they are built from. */
export function cacheLayerOf(key: string): 'answer' | 'platform' | 'other' {
  if (key.startsWith('op:')) return 'answer';
  if (key.startsWith('up:')) return 'platform';
  return 'other';
}

export function createMetrics(options: { defaultMetrics?: boolean } = {}): Metrics {
  const registry = new Registry();
  if (options.defaultMetrics) collectDefaultMetrics({ register: registry, prefix: 'reelay_' });
  const registers = [registry];
  const requests = new Counter({ name: 'reelay_http_requests_total', help: 'REST requests by route and status.', labelNames: ['route', 'status'], registers });
  const latency = new Histogram({
    name: 'reelay_http_request_duration_seconds',
    help: 'REST request latency by route.',
    labelNames: ['route'],
    buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers,
  });
  const upstream = new Counter({
    name: 'reelay_upstream_requests_total',
    help: 'Platform requests by endpoint and classified outcome.',
    labelNames: ['endpoint', 'outcome'],
    registers,
  });
  const upstreamLatency = new Histogram({
    name: 'reelay_upstream_request_duration_seconds',
    help: 'Platform request latency by endpoint.',
    labelNames: ['endpoint'],
    buckets: [0.05, 0.1, 0.25, 0.5, 1, 2, 4, 8, 16],
    registers,
  });
  const routes = new Counter({
    name: 'reelay_upstream_route_requests_total',
    help: 'Platform requests by route (signed, unsigned, page, browser, plain, file), endpoint and outcome.',
    labelNames: ['route', 'endpoint', 'outcome'],
    registers,
  });
  const cache = new Counter({
    name: 'reelay_cache_events_total',
    help: 'Response cache events (hit, miss, stale, revalidated, error).',
    labelNames: ['status'],
    registers,
  });
  const hits = new Counter({
    name: 'reelay_cache_hits_total',
    help: 'Cache lookups answered from stored bytes (fresh, stale-while-revalidate or a remembered absence), by layer (answer, platform).',
    labelNames: ['layer'],
    registers,
  });
  const misses = new Counter({
    name: 'reelay_cache_misses_total',
    help: 'Cache lookups that waited on a load (their own or one in flight), by layer (answer, platform).',
    labelNames: ['layer'],
    registers,
  });
  const coalesced = new Counter({
    name: 'reelay_coalesced_requests_total',
    help: 'Lookups that joined a fetch already in flight instead of starting one, by layer and scope (process, cluster).',
    labelNames: ['layer', 'scope'],
    registers,
  });
  const retired = new Counter({
    name: 'reelay_upstream_identities_retired_total',
    help: 'Identities taken out of rotation because the platform refused them, by reason.',
    labelNames: ['reason'],
    registers,
  });

  let source: UpstreamSource | undefined;
  new Gauge({
    name: 'reelay_upstream_breaker_state',
    help: 'Circuit breaker of each platform endpoint called so far: 0 closed, 1 open, 2 half-open.',
    labelNames: ['endpoint'],
    registers,
    collect() {
      this.reset();
      for (const { endpoint, state } of source?.breakerStates() ?? []) this.set({ endpoint }, state);
    },
  });
  new Gauge({
    name: 'reelay_upstream_identities',
    help: 'Platform identities by state: healthy (in rotation, served), degraded (in rotation, mostly failing), bootstrapping.',
    labelNames: ['state'],
    registers,
    async collect() {
      // A health store that cannot be read leaves the series out of this scrape, never fails it.
      const states = await source?.identityStates().catch(() => undefined);
      this.reset();
      for (const [state, count] of Object.entries(states ?? {})) this.set({ state }, count);
    },
  });

  return {
    observeRequest(route, status, seconds) {
      requests.inc({ route, status: String(status) });
      latency.observe({ route }, seconds);
    },
    observeUpstream(endpoint, outcome, seconds, route) {
      upstream.inc({ endpoint, outcome });
      upstreamLatency.observe({ endpoint }, seconds);
      if (route !== undefined) routes.inc({ route, endpoint, outcome });
    },
    observeCache(status) {
      cache.inc({ status });
    },
    observeCacheLookup(key, hit) {
      (hit ? hits : misses).inc({ layer: cacheLayerOf(key) });
    },
    observeCoalesced(key, scope) {
      coalesced.inc({ layer: cacheLayerOf(key), scope });
    },
    observeIdentityRetired(reason) {
      retired.inc({ reason });
    },
    watchUpstream(given) {
      source = given;
    },
    contentType: registry.contentType,
    render: () => registry.metrics(),
  };
}
