// Benchmark 2: the miss path. One cold request at a time; reelay's latency minus the time the
// emulator spent on the platform requests that request caused (timed by the proxy in front of it).
import { authHeaders, type BenchContext } from '../lib/context.ts';
import { percentile, round, timedFetch } from '../lib/measure.ts';

export type MissSeries = {
  label: string;
  samples: number;
  statuses: Record<string, number>;
  upstreamRequestsPerMiss: number;
  endToEndP50Ms: number;
  endToEndP99Ms: number;
  upstreamP50Ms: number;
  overheadP50Ms: number;
  overheadP99Ms: number;
};

async function series(ctx: BenchContext, label: string, paths: string[]): Promise<MissSeries> {
  const headers = authHeaders(ctx.key);
  const overheads: number[] = [];
  const totals: number[] = [];
  const upstreams: number[] = [];
  const statuses: Record<string, number> = {};
  let upstreamCount = 0;
  ctx.proxy.take();
  for (const path of paths) {
    const response = await timedFetch(`${ctx.service.restUrl}${path}`, { headers });
    const samples = ctx.proxy.take();
    statuses[response.status] = (statuses[response.status] ?? 0) + 1;
    if (response.status !== 200 || samples.length === 0) continue;
    const upstreamMs = samples.reduce((sum, s) => sum + s.durationMs, 0);
    upstreamCount += samples.length;
    totals.push(response.ms);
    upstreams.push(upstreamMs);
    overheads.push(response.ms - upstreamMs);
  }
  const result: MissSeries = {
    label,
    samples: overheads.length,
    statuses,
    upstreamRequestsPerMiss: round(upstreamCount / Math.max(1, overheads.length)),
    endToEndP50Ms: round(percentile(totals, 50)),
    endToEndP99Ms: round(percentile(totals, 99)),
    upstreamP50Ms: round(percentile(upstreams, 50)),
    overheadP50Ms: round(percentile(overheads, 50)),
    overheadP99Ms: round(percentile(overheads, 99)),
  };
  ctx.log(`miss ${label}: overhead p50 ${result.overheadP50Ms} ms, p99 ${result.overheadP99Ms} ms over ${result.samples} misses`);
  return result;
}

/** Cold single videos (one platform request each) and cold 30-video pages of distinct users. */
export async function benchMiss(ctx: BenchContext, options = { samples: 150, warmup: 20 }): Promise<MissSeries[]> {
  const ids = ctx.picks.videoIds(options.samples * 2 + options.warmup);
  const users = ctx.picks.usersWithVideos(30).slice(100);
  const videoPaths = ids.map((id) => `/v1/platform/videos/${id}`);
  const pagePaths = users.map((u) => `/v1/platform/users/${u}/videos?count=30`);
  // A few cold requests first so the measured ones do not include the first-use costs.
  await series(ctx, 'warm-up', videoPaths.slice(0, options.warmup));
  return [
    await series(ctx, 'video (1 platform request)', videoPaths.slice(options.warmup, options.warmup + options.samples)),
    await series(ctx, '30-video page (profile + posts)', pagePaths.slice(0, Math.min(pagePaths.length, options.samples))),
  ];
}
