// Benchmark 2: the miss path. One cold request at a time; reelay's latency minus the time the
// emulator spent on the platform requests that request caused (timed by the proxy in front of it).
// Each series is then replayed against the floor (lib/floor-server.ts): the same platform requests,
// parsed once, and reelay's answer bytes written, measured the same way in the same run.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { authHeaders, type BenchContext } from '../lib/context.ts';
import { startFloor } from '../lib/bare.ts';
import type { FloorPlan } from '../lib/floor-server.ts';
import { percentile, round, timedFetch } from '../lib/measure.ts';

/**
 * Where a miss's overhead goes, p50 of each part, from the server's `Server-Timing` (app: arrival to
 * answer ready; platform: its platform requests from sending to body read): `own` = app − platform,
 * the server's own work; `platformHop` = platform − the proxy's time, the server's HTTP client and
 * the proxy's forwarding; `clientHop` = end-to-end − app, the measuring client, the request's
 * transit and writing the answer. The parts' p50s need not add up to the overhead's.
 */
export type OverheadParts = { ownP50Ms: number; platformHopP50Ms: number; clientHopP50Ms: number };

export type MissFigures = {
  samples: number;
  parts?: OverheadParts;
  statuses: Record<string, number>;
  upstreamRequestsPerMiss: number;
  endToEndP50Ms: number;
  endToEndP99Ms: number;
  upstreamP50Ms: number;
  overheadP50Ms: number;
  overheadP99Ms: number;
};

export type MissSeries = MissFigures & {
  label: string;
  /** The same misses answered by the floor: platform requests replayed and parsed once, reelay's bytes written. */
  floor?: MissFigures;
};

type Measured = { figures: MissFigures; plan: FloorPlan };

/** Requests `urls` one at a time; overhead = end-to-end minus the platform time the proxy saw. */
async function measure(ctx: BenchContext, urls: string[], headers: Record<string, string>, keep: boolean): Promise<Measured> {
  const overheads: number[] = [];
  const totals: number[] = [];
  const upstreams: number[] = [];
  const statuses: Record<string, number> = {};
  const plan: FloorPlan = [];
  const own: number[] = [];
  const platformHop: number[] = [];
  const clientHop: number[] = [];
  let upstreamCount = 0;
  ctx.proxy.take();
  for (const url of urls) {
    const response = await timedFetch(url, { headers });
    const samples = ctx.proxy.take();
    statuses[response.status] = (statuses[response.status] ?? 0) + 1;
    if (response.status !== 200 || samples.length === 0) continue;
    const upstreamMs = samples.reduce((sum, s) => sum + s.durationMs, 0);
    upstreamCount += samples.length;
    totals.push(response.ms);
    upstreams.push(upstreamMs);
    overheads.push(response.ms - upstreamMs);
    const timing = parseServerTiming(response.headers.get('server-timing'));
    if (timing.app !== undefined && timing.platform !== undefined) {
      own.push(timing.app - timing.platform);
      platformHop.push(timing.platform - upstreamMs);
      clientHop.push(response.ms - timing.app);
    }
    if (keep) {
      const answerFile = join(ctx.workDir, `miss-answer-${plan.length}.json`);
      writeFileSync(answerFile, response.body);
      const requests = samples.flatMap((s) => (s.request ? [{ url: `${ctx.proxy.url}${s.request.url}`, headers: s.request.headers }] : []));
      plan.push({ answerFile, contentType: response.headers.get('content-type') ?? 'application/json', requests });
    }
  }
  const figures: MissFigures = {
    samples: overheads.length,
    statuses,
    upstreamRequestsPerMiss: round(upstreamCount / Math.max(1, overheads.length)),
    endToEndP50Ms: round(percentile(totals, 50)),
    endToEndP99Ms: round(percentile(totals, 99)),
    upstreamP50Ms: round(percentile(upstreams, 50)),
    overheadP50Ms: round(percentile(overheads, 50)),
    overheadP99Ms: round(percentile(overheads, 99)),
  };
  if (own.length > 0) {
    figures.parts = { ownP50Ms: round(percentile(own, 50)), platformHopP50Ms: round(percentile(platformHop, 50)), clientHopP50Ms: round(percentile(clientHop, 50)) };
  }
  return { figures, plan };
}

/** `app;dur=1.2, platform;dur=3.4;desc="…"` → { app: 1.2, platform: 3.4 }. */
function parseServerTiming(header: string | null): { app?: number; platform?: number } {
  const out: Record<string, number> = {};
  for (const metric of (header ?? '').split(',')) {
    const [name, ...params] = metric.trim().split(';');
    const dur = params.map((p) => /^\s*dur=([\d.]+)/.exec(p)?.[1]).find((v) => v !== undefined);
    if (name && dur !== undefined) out[name] = Number(dur);
  }
  return out;
}

async function series(ctx: BenchContext, label: string, paths: string[]): Promise<MissSeries> {
  ctx.proxy.keepRequests(true);
  let measured: Measured;
  try {
    measured = await measure(ctx, paths.map((p) => `${ctx.service.restUrl}${p}`), authHeaders(ctx.key), true);
  } finally {
    ctx.proxy.keepRequests(false);
  }
  const planFile = join(ctx.workDir, `miss-floor-${label.replace(/\W+/g, '-')}.json`);
  writeFileSync(planFile, JSON.stringify(measured.plan));
  const floorServer = await startFloor(planFile);
  let floor: MissFigures;
  try {
    // A few replays first so the floor's JIT is as warm as the service's.
    await measure(ctx, measured.plan.slice(0, 10).map((_, n) => `${floorServer.url}/${n}`), {}, false);
    floor = (await measure(ctx, measured.plan.map((_, n) => `${floorServer.url}/${n}`), {}, false)).figures;
  } finally {
    floorServer.stop();
  }
  const result: MissSeries = { label, ...measured.figures, floor };
  if (floor.samples < measured.plan.length) ctx.log(`miss ${label}: the floor failed some replays: ${JSON.stringify(floor.statuses)}`);
  ctx.log(`miss ${label}: overhead p50 ${result.overheadP50Ms} ms, p99 ${result.overheadP99Ms} ms over ${result.samples} misses; floor p50 ${floor.overheadP50Ms} ms`);
  return result;
}

/** Cold single videos (one platform request each) and cold 30-video pages of distinct users. */
export async function benchMiss(ctx: BenchContext, options = { samples: 150, warmup: 20 }): Promise<MissSeries[]> {
  const ids = ctx.picks.videoIds(options.samples * 2 + options.warmup);
  const users = ctx.picks.usersWithVideos(30).slice(100);
  const videoPaths = ids.map((id) => `/v1/platform/videos/${id}`);
  const pagePaths = users.map((u) => `/v1/platform/users/${u}/videos?count=30`);
  // A few cold requests first so the measured ones do not include the first-use costs.
  await measure(ctx, videoPaths.slice(0, options.warmup).map((p) => `${ctx.service.restUrl}${p}`), authHeaders(ctx.key), false);
  return [
    await series(ctx, 'video (1 platform request)', videoPaths.slice(options.warmup, options.warmup + options.samples)),
    await series(ctx, '30-video page (profile + posts)', pagePaths.slice(0, Math.min(pagePaths.length, options.samples))),
  ];
}
