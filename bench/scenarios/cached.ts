// Benchmark 1: the cached hit path for a 30-video page against a bare node:http server that
// answers the same bytes, both loaded by autocannon in its own process, in the same run.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { authHeaders, type BenchContext } from '../lib/context.ts';
import { runLoad, type LoadSummary } from '../lib/load.ts';
import { round, timedFetch } from '../lib/measure.ts';
import { startBare } from '../lib/bare.ts';

export type CachedResult = {
  path: string;
  bodyBytes: number;
  connections: number;
  durationSeconds: number;
  reelay: LoadSummary;
  bare: LoadSummary;
  throughputRatio: number;
};

export async function benchCached(ctx: BenchContext, username: string, options = { connections: 32, durationSeconds: 8, warmupSeconds: 3 }): Promise<CachedResult> {
  const path = `/v1/platform/users/${username}/videos?count=30`;
  const url = `${ctx.service.restUrl}${path}`;
  const headers = authHeaders(ctx.key);
  const first = await timedFetch(url, { headers });
  const hit = await timedFetch(url, { headers });
  if (first.status !== 200 || hit.status !== 200 || !/hit/.test(hit.headers.get('cache-status') ?? '')) {
    throw new Error(`cached path not cached: ${first.status}/${hit.status} ${hit.headers.get('cache-status')}`);
  }
  const bodyFile = join(ctx.workDir, 'cached-page.json');
  writeFileSync(bodyFile, hit.body);
  const bare = await startBare(bodyFile);
  try {
    const common = { connections: options.connections };
    // Warm-ups let both servers' JITs settle before the measured runs.
    await runLoad({ ...common, url, headers, durationSeconds: options.warmupSeconds });
    await runLoad({ ...common, url: `${bare.url}${path}`, durationSeconds: options.warmupSeconds });
    const reelay = await runLoad({ ...common, url, headers, durationSeconds: options.durationSeconds });
    const bareRun = await runLoad({ ...common, url: `${bare.url}${path}`, durationSeconds: options.durationSeconds });
    ctx.log(`cached: reelay ${round(reelay.requestsPerSecond, 0)} req/s, bare ${round(bareRun.requestsPerSecond, 0)} req/s`);
    return {
      path,
      bodyBytes: Buffer.byteLength(hit.body),
      connections: options.connections,
      durationSeconds: options.durationSeconds,
      reelay,
      bare: bareRun,
      throughputRatio: round(reelay.requestsPerSecond / bareRun.requestsPerSecond, 3),
    };
  } finally {
    bare.stop();
  }
}
