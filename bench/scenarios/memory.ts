// Benchmark 5: RSS of the service before and after 200,000 requests over 20,000 distinct keys,
// on a service whose response cache is bounded (REELAY_CACHE_MAX_BYTES).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { authHeaders, type BenchContext } from '../lib/context.ts';
import { runLoad, type LoadSummary } from '../lib/load.ts';
import { round } from '../lib/measure.ts';

export type MemoryResult = {
  requests: number;
  distinctKeys: number;
  cacheMaxBytes: number;
  rssBeforeMb: number;
  /** RSS when the load's last answer arrived. */
  rssRightAfterMb: number;
  /** RSS once settled, `SETTLE_MS` later with no traffic: what the node keeps for having served the load. */
  rssAfterMb: number;
  rssPeakMb: number;
  rssGrowthMb: number;
  boundMb: number;
  /** Before and after, from the service's own /metrics: where the RSS lives. */
  heapUsedMb: [number, number];
  /** V8 heap committed (used + free pages and the young generation's semi-spaces). */
  heapTotalMb: [number, number];
  externalMb: [number, number];
  load: LoadSummary;
};

const MB = 1024 * 1024;
/**
 * How long after the load RSS is read again. Right after the last answer, memory freed in the last
 * moments is still resident (jemalloc hands it back within a second, glibc keeps it), so that
 * reading varies by tens of MB between identical runs; both are reported.
 */
const SETTLE_MS = 3000;


/** V8 heap in use and external (Buffer) memory as the service reports them on /metrics. */
async function processMemory(ctx: BenchContext): Promise<{ heapUsedMb: number; heapTotalMb: number; externalMb: number }> {
  const text = await (await fetch(`${ctx.service.restUrl}/metrics`)).text();
  const read = (name: string) => Number(new RegExp(`^${name}(?:\\{[^}]*\\})? ([0-9.e+]+)$`, 'm').exec(text)?.[1] ?? Number.NaN);
  return {
    heapUsedMb: round(read('reelay_nodejs_heap_size_used_bytes') / MB, 1),
    heapTotalMb: round(read('reelay_nodejs_heap_size_total_bytes') / MB, 1),
    externalMb: round(read('reelay_nodejs_external_memory_bytes') / MB, 1),
  };
}

export async function benchMemory(ctx: BenchContext, cacheMaxBytes: number, options = { requests: 200_000, keys: 20_000, connections: 32 }): Promise<MemoryResult> {
  // Single videos: each key is one platform request and about 10 KB, so 20,000 of them overflow the cache.
  const paths = ctx.picks.videoIds(options.keys).map((id) => `/v1/platform/videos/${id}`);
  if (paths.length < options.keys) throw new Error(`only ${paths.length} distinct paths`);
  // Each key's ten requests come together (one miss, then hits) rather than in a cycle of 20,000,
  // which would defeat any LRU smaller than the key space and turn the run into 200,000 misses.
  const repeats = Math.ceil(options.requests / paths.length);
  const pathsFile = join(ctx.workDir, 'memory-paths.json');
  writeFileSync(pathsFile, JSON.stringify(paths.flatMap((path) => Array.from({ length: repeats }, () => path))));
  const before = ctx.service.rssBytes();
  const memoryBefore = await processMemory(ctx);
  let peak = before;
  // Sampling RSS once a second while the load runs (a benchmark, not a test: timing is the point).
  const sampler = setInterval(() => (peak = Math.max(peak, ctx.service.rssBytes())), 1000);
  let load: LoadSummary;
  try {
    load = await runLoad({
      url: ctx.service.restUrl,
      connections: options.connections,
      amount: options.requests,
      headers: authHeaders(ctx.key),
      pathsFile,
    }, 600_000);
  } finally {
    clearInterval(sampler);
  }
  const rightAfter = ctx.service.rssBytes();
  peak = Math.max(peak, rightAfter);
  await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
  const after = ctx.service.rssBytes();
  const memoryAfter = await processMemory(ctx);
  peak = Math.max(peak, after);
  const result: MemoryResult = {
    requests: load.requestsTotal,
    distinctKeys: paths.length,
    cacheMaxBytes,
    rssBeforeMb: round(before / MB, 1),
    rssRightAfterMb: round(rightAfter / MB, 1),
    rssAfterMb: round(after / MB, 1),
    rssPeakMb: round(peak / MB, 1),
    rssGrowthMb: round((after - before) / MB, 1),
    boundMb: round(cacheMaxBytes / MB + 100, 1),
    heapUsedMb: [memoryBefore.heapUsedMb, memoryAfter.heapUsedMb],
    heapTotalMb: [memoryBefore.heapTotalMb, memoryAfter.heapTotalMb],
    externalMb: [memoryBefore.externalMb, memoryAfter.externalMb],
    load,
  };
  ctx.log(
    `memory: RSS ${result.rssBeforeMb} -> ${result.rssRightAfterMb} MB right after ${result.requests} requests, ${result.rssAfterMb} MB ${SETTLE_MS / 1000} s later (peak ${result.rssPeakMb}); ` +
      `peak growth ${round(result.rssPeakMb - result.rssBeforeMb, 1)} MB against a bound of ${result.boundMb} MB (cache budget + 100 MB)`,
  );
  return result;
}
