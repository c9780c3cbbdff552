// Benchmark 6: `reelay export` paging a 5,000-video user to NDJSON, as a user runs it.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { BenchContext } from '../lib/context.ts';
import { round } from '../lib/measure.ts';
import { runCli } from '../lib/service-process.ts';

export type ExportResult = {
  username: string;
  items: number;
  wallSeconds: number;
  itemsPerSecond: number;
  platformRequests: number;
  exitCode: number | null;
};

export async function benchExport(ctx: BenchContext, username: string, items = 5000): Promise<ExportResult> {
  const out = join(ctx.workDir, 'export.ndjson');
  ctx.proxy.take();
  const started = performance.now();
  const run = await runCli(['export', `/v1/platform/users/${username}/videos`, '--max', String(items), '--out', out], {
    ...ctx.service.env,
    REELAY_DATA_DIR: join(ctx.workDir, 'export-data'),
    REELAY_LOG_LEVEL: 'warn',
  }, 300_000);
  const wallSeconds = (performance.now() - started) / 1000;
  const lines = readFileSync(out, 'utf8').split('\n').filter((line) => line.length > 0).length;
  const result: ExportResult = {
    username,
    items: lines,
    wallSeconds: round(wallSeconds, 2),
    itemsPerSecond: round(lines / wallSeconds, 0),
    platformRequests: ctx.proxy.take().length,
    exitCode: run.code,
  };
  if (run.code !== 0) ctx.log(`export stderr: ${run.stderr.slice(-500)}`);
  ctx.log(`export: ${lines} items in ${result.wallSeconds} s = ${result.itemsPerSecond} items/s`);
  return result;
}
