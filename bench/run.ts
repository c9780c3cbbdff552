// `npm run bench`: the emulator (fixed latency) behind a timing proxy, the service as its own
// process, autocannon in its own processes. Prints figures, writes bench/results/<date>.json and
// the table in bench/README.md. `--only cached,miss` runs a subset; `--cpu-prof` profiles the service.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { startEmulator } from '../emulator/server.ts';
import type { BenchContext } from './lib/context.ts';
import { datasetPicks } from './lib/measure.ts';
import { evaluateTargets, machine, markdownTable, updateReadme, writeResults, type RunResults } from './lib/report.ts';
import { createKeyWithCli, REPO_ROOT, serviceEnv, startService } from './lib/service-process.ts';
import { startTimingProxy } from './lib/timing-proxy.ts';
import { benchCached } from './scenarios/cached.ts';
import { benchMiss } from './scenarios/miss.ts';
import { benchCoalescing } from './scenarios/coalescing.ts';
import { benchMcp } from './scenarios/mcp.ts';
import { benchMemory } from './scenarios/memory.ts';
import { benchExport } from './scenarios/export.ts';
import { benchWatches } from './scenarios/watches.ts';

const SEED = 1;
const LATENCY_MS = 20;
const MEMORY_CACHE_BYTES = 64 * 1024 * 1024;
const ALL = ['cached', 'miss', 'coalescing', 'mcp', 'memory', 'export', 'watches'];

const { values } = parseArgs({
  options: { only: { type: 'string' }, 'cpu-prof': { type: 'boolean' }, 'no-write': { type: 'boolean' } },
  strict: true,
});
const only = new Set(values.only ? values.only.split(',') : ALL);
const log = (line: string) => process.stderr.write(`bench: ${line}\n`);
const startedAt = performance.now();

const emulator = await startEmulator({ seed: SEED, latencyMs: LATENCY_MS });
const proxy = await startTimingProxy(emulator.url);
const workDir = await mkdtemp(join(tmpdir(), 'reelay-bench-'));
const picks = datasetPicks(SEED);
const profileDir = join(tmpdir(), 'reelay-bench-profiles');
const nodeFlags = values['cpu-prof'] ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [];

async function withService<T>(env: Record<string, string>, name: string, work: (ctx: BenchContext) => Promise<T>): Promise<T> {
  const dataDir = await mkdtemp(join(workDir, `${name}-`));
  const options = { emulatorUrl: proxy.url, dataDir, env, nodeFlags };
  const key = await createKeyWithCli(serviceEnv(options, dataDir));
  const service = await startService(options);
  try {
    return await work({ emulator, proxy, service, key, picks, workDir, log });
  } finally {
    await service.stop();
  }
}

const results: RunResults = {
  date: new Date().toISOString(),
  command: `npm run bench${values.only ? ` -- --only ${values.only}` : ''}`,
  machine: machine(),
  node: process.version,
  emulatorLatencyMs: LATENCY_MS,
  durationSeconds: 0,
  targets: [],
};

try {
  const manyVideos = emulator.manifest.users.manyVideos;
  await withService({}, 'main', async (ctx) => {
    if (only.has('cached')) results.cached = await benchCached(ctx, manyVideos);
    if (only.has('miss')) results.miss = await benchMiss(ctx);
    if (only.has('coalescing')) results.coalescing = await benchCoalescing(ctx);
    if (only.has('mcp')) results.mcp = await benchMcp(ctx, emulator.manifest.users.public);
    if (only.has('export')) results.export = await benchExport(ctx, manyVideos);
  });
  if (only.has('memory')) {
    const env = { REELAY_CACHE_MAX_BYTES: String(MEMORY_CACHE_BYTES) };
    results.memory = await withService(env, 'memory', (ctx) => benchMemory(ctx, MEMORY_CACHE_BYTES));
  }
  if (only.has('watches')) {
    // Runs every second need the floor lowered; 200 idle watches need a higher per-key cap.
    const env = { REELAY_WATCH_MIN_INTERVAL: '1s', REELAY_WATCH_MAX_PER_KEY: '1000' };
    const { live } = emulator.manifest.users;
    results.watches = await withService(env, 'watches', (ctx) => benchWatches(ctx, live));
  }
} finally {
  await proxy.close();
  await emulator.close();
  await rm(workDir, { recursive: true, force: true });
}

if (values['cpu-prof']) log(`service CPU profiles in ${profileDir} (summarise with node bench/profile-summary.ts FILE)`);
results.durationSeconds = Math.round((performance.now() - startedAt) / 1000);
results.targets = evaluateTargets(results);
const table = markdownTable(results);
process.stdout.write(`\n${table}\n\n`);
if (!values['no-write']) {
  const file = writeResults(join(REPO_ROOT, 'bench/results'), results);
  const readme = updateReadme(join(REPO_ROOT, 'bench/README.md'), table);
  log(`wrote ${file}${readme ? ' and the table in bench/README.md' : ''}`);
}
