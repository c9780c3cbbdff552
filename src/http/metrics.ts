// Prometheus metrics on a registry of the app's own (no global state): requests, latency,
// platform outcomes and cache events.
import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

export type Metrics = {
  observeRequest(route: string, status: number, seconds: number): void;
  observeUpstream(endpoint: string, outcome: string, seconds: number): void;
  observeCache(status: string): void;
  contentType: string;
  render(): Promise<string>;
};

export function createMetrics(options: { defaultMetrics?: boolean } = {}): Metrics {
  const registry = new Registry();
  if (options.defaultMetrics) collectDefaultMetrics({ register: registry, prefix: 'reelay_' });
  const requests = new Counter({
    name: 'reelay_http_requests_total',
    help: 'REST requests by route and status.',
    labelNames: ['route', 'status'],
    registers: [registry],
  });
  const latency = new Histogram({
    name: 'reelay_http_request_duration_seconds',
    help: 'REST request latency by route.',
    labelNames: ['route'],
    buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  const upstream = new Counter({
    name: 'reelay_upstream_requests_total',
    help: 'Platform requests by endpoint and classified outcome.',
    labelNames: ['endpoint', 'outcome'],
    registers: [registry],
  });
  const upstreamLatency = new Histogram({
    name: 'reelay_upstream_request_duration_seconds',
    help: 'Platform request latency by endpoint.',
    labelNames: ['endpoint'],
    buckets: [0.05, 0.1, 0.25, 0.5, 1, 2, 4, 8, 16],
    registers: [registry],
  });
  const cache = new Counter({
    name: 'reelay_cache_events_total',
    help: 'Response cache events (hit, miss, stale, revalidated, error).',
    labelNames: ['status'],
    registers: [registry],
  });
  return {
    observeRequest(route, status, seconds) {
      requests.inc({ route, status: String(status) });
      latency.observe({ route }, seconds);
    },
    observeUpstream(endpoint, outcome, seconds) {
      upstream.inc({ endpoint, outcome });
      upstreamLatency.observe({ endpoint }, seconds);
    },
    observeCache(status) {
      cache.inc({ status });
    },
    contentType: registry.contentType,
    render: () => registry.metrics(),
  };
}
