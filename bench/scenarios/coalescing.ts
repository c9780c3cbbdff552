// Benchmark 3: 200 simultaneous identical cold requests must cost the platform what one does.
import { authHeaders, type BenchContext } from '../lib/context.ts';
import { timedFetch } from '../lib/measure.ts';

export type CoalescingResult = {
  concurrent: number;
  platformRequestsForOneColdRequest: number;
  platformRequests: number;
  platformPaths: Record<string, number>;
  statuses: Record<string, number>;
};

export async function benchCoalescing(ctx: BenchContext, concurrent = 200): Promise<CoalescingResult> {
  const headers = authHeaders(ctx.key);
  const [single, target] = ctx.picks.videoIds(5000).slice(-2);
  ctx.proxy.take();
  await timedFetch(`${ctx.service.restUrl}/v1/platform/videos/${single}`, { headers });
  const baseline = ctx.proxy.take().length;
  const url = `${ctx.service.restUrl}/v1/platform/videos/${target}`;
  const answers = await Promise.all(Array.from({ length: concurrent }, () => timedFetch(url, { headers })));
  const samples = ctx.proxy.take();
  const statuses: Record<string, number> = {};
  for (const a of answers) statuses[a.status] = (statuses[a.status] ?? 0) + 1;
  const platformPaths: Record<string, number> = {};
  for (const s of samples) platformPaths[s.path] = (platformPaths[s.path] ?? 0) + 1;
  ctx.log(`coalescing: ${concurrent} cold requests -> ${samples.length} platform request(s) (one cold request: ${baseline})`);
  return { concurrent, platformRequestsForOneColdRequest: baseline, platformRequests: samples.length, platformPaths, statuses };
}
