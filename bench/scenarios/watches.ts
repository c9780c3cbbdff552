// Benchmark 7: what watches cost. Per kind, the platform requests one run makes and so per watch per
// hour at common intervals, and the service's own CPU per run beyond its idle use; then the
// scheduler's idle CPU with many watches between runs. Runs every 2 s accept answers at most 1 s old:
// each run asks the platform anew (no sharing across runs, the worst case of any interval), while
// the reads of one run share what it just fetched, as they do at every interval.
import { readFileSync } from 'node:fs';
import { authHeaders, type BenchContext } from '../lib/context.ts';
import { round } from '../lib/measure.ts';

export type WatchKindFigures = {
  kind: string;
  watches: number;
  runs: number;
  failedRuns: number;
  platformRequests: number;
  requestsPerRun: number;
  /** requestsPerRun × runs per hour, at `every: 15m` and `every: 1m`. */
  requestsPerHourAt15m: number;
  requestsPerHourAt1m: number;
  /** Service CPU per run (user + system) less its idle CPU over the same time. */
  cpuMsPerRun: number;
};

export type WatchesResult = {
  kinds: WatchKindFigures[];
  idle: { watches: number; seconds: number; cpuPercent: number; baselineCpuPercent: number };
};

const RUN_EVERY = '2s';
const WATCHES_PER_KIND = 10;
const RUNS_PER_KIND = 100;
const PHASE_DEADLINE_MS = 60_000;
const IDLE_WATCHES = 200;
const IDLE_SECONDS = 10;

const CLOCK_TICK_MS = 10; // USER_HZ is 100 on Linux

/** The service process's user + system CPU so far, in ms (10 ms resolution). */
function cpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * CLOCK_TICK_MS;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function benchWatches(ctx: BenchContext, liveUser: string): Promise<WatchesResult> {
  const headers = authHeaders(ctx.key);
  const pid = ctx.service.child.pid!;
  const api = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${ctx.service.restUrl}${path}`, body ? { method, headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify(body) } : { method, headers });
    const text = await res.text();
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text.slice(0, 300)}`);
    return text ? (JSON.parse(text) as { data: any }) : { data: undefined };
  };
  const create = async (kind: string, target: string, every: string) => (await api('POST', '/v1/watches', { kind, target, every })).data.id as string;
  const runsOf = async (id: string) => ((await api('GET', `/v1/watches/${id}/history?limit=10000`)).data.points as unknown[]).length;

  // Baseline: the service with no watch at all.
  const baseStart = cpuMs(pid);
  await sleep(IDLE_SECONDS * 1000);
  const idleRate = (cpuMs(pid) - baseStart) / (IDLE_SECONDS * 1000);

  const users = ctx.picks.usersWithVideos(10).slice(0, WATCHES_PER_KIND);
  const videos = ctx.picks.videoIds(WATCHES_PER_KIND + 200);
  const targets: Record<string, string[]> = {
    user: users,
    video: videos.slice(0, WATCHES_PER_KIND),
    tag: ctx.picks.tags(WATCHES_PER_KIND),
    // One user of the dataset is live; the others are read as watches of users who are not.
    live: [liveUser, ...users.slice(1)],
  };

  const kinds: WatchKindFigures[] = [];
  for (const [kind, list] of Object.entries(targets)) {
    ctx.proxy.take();
    const cpuStart = cpuMs(pid);
    const started = performance.now();
    const ids: string[] = [];
    for (const target of list) ids.push(await create(kind, target, RUN_EVERY));
    const deadline = started + PHASE_DEADLINE_MS;
    while (performance.now() < deadline) {
      await sleep(1000);
      const first = await runsOf(ids[0]!);
      if (first * ids.length >= RUNS_PER_KIND) break;
    }
    for (const id of ids) await api('PATCH', `/v1/watches/${id}`, { status: 'paused' });
    await sleep(1500); // runs already claimed finish
    const elapsedMs = performance.now() - started;
    const cpu = cpuMs(pid) - cpuStart - idleRate * elapsedMs;
    const samples = ctx.proxy.take();
    let runs = 0;
    let failedRuns = 0;
    for (const id of ids) {
      runs += await runsOf(id);
      const w = (await api('GET', `/v1/watches/${id}`)).data;
      failedRuns += w.failures;
    }
    for (const id of ids) await api('DELETE', `/v1/watches/${id}`);
    const perRun = runs > 0 ? samples.length / runs : Number.NaN;
    const figures: WatchKindFigures = {
      kind,
      watches: ids.length,
      runs,
      failedRuns,
      platformRequests: samples.length,
      requestsPerRun: round(perRun),
      requestsPerHourAt15m: round(perRun * 4, 1),
      requestsPerHourAt1m: round(perRun * 60, 1),
      cpuMsPerRun: round(cpu / Math.max(1, runs)),
    };
    const paths: Record<string, number> = {};
    for (const s of samples) {
      const path = s.path.split('?')[0]!;
      paths[path] = (paths[path] ?? 0) + 1;
    }
    ctx.log(`watches: ${kind}: platform paths ${JSON.stringify(paths)}`);
    ctx.log(`watches: ${kind}: ${runs} runs of ${ids.length} watches, ${samples.length} platform requests (${figures.requestsPerRun}/run), ${figures.cpuMsPerRun} ms CPU/run`);
    kinds.push(figures);
  }

  // The scheduler between runs: many watches every hour, once each has had its first run.
  const idleIds: string[] = [];
  for (const id of videos.slice(WATCHES_PER_KIND, WATCHES_PER_KIND + IDLE_WATCHES)) idleIds.push(await create('video', id, '1h'));
  const firstRunsBy = performance.now() + PHASE_DEADLINE_MS;
  while (performance.now() < firstRunsBy) {
    const list = (await api('GET', '/v1/watches')).data as Array<{ lastRunAt: string | null }>;
    if (list.every((w) => w.lastRunAt !== null)) break;
    await sleep(1000);
  }
  await sleep(1000);
  const idleStart = cpuMs(pid);
  await sleep(IDLE_SECONDS * 1000);
  const idleCpu = cpuMs(pid) - idleStart;
  for (const id of idleIds) await api('DELETE', `/v1/watches/${id}`);
  const idle = {
    watches: idleIds.length,
    seconds: IDLE_SECONDS,
    cpuPercent: round((idleCpu / (IDLE_SECONDS * 1000)) * 100),
    baselineCpuPercent: round(idleRate * 100),
  };
  ctx.log(`watches: idle with ${idle.watches} watches: ${idle.cpuPercent}% CPU (no watches: ${idle.baselineCpuPercent}%)`);
  return { kinds, idle };
}
