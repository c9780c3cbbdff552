// Turns one run's figures into the results JSON and the markdown table kept in bench/README.md.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, totalmem, release, type } from 'node:os';
import { join } from 'node:path';
import type { CachedResult } from '../scenarios/cached.ts';
import type { MissSeries } from '../scenarios/miss.ts';
import type { CoalescingResult } from '../scenarios/coalescing.ts';
import type { McpResult } from '../scenarios/mcp.ts';
import type { MemoryResult } from '../scenarios/memory.ts';
import type { ExportResult } from '../scenarios/export.ts';
import type { WatchesResult } from '../scenarios/watches.ts';

export type RunResults = {
  date: string;
  command: string;
  machine: { cpu: string; cores: number; memoryGb: number; os: string };
  node: string;
  emulatorLatencyMs: number;
  durationSeconds: number;
  cached?: CachedResult;
  miss?: MissSeries[];
  coalescing?: CoalescingResult;
  mcp?: McpResult;
  memory?: MemoryResult;
  export?: ExportResult;
  watches?: WatchesResult;
  targets: Array<{ name: string; target: string; value: string; met: boolean }>;
};

export function machine(): RunResults['machine'] {
  const list = cpus();
  return {
    cpu: list[0]?.model.trim() ?? 'unknown',
    cores: list.length,
    memoryGb: Math.round(totalmem() / 1024 ** 3),
    os: `${type()} ${release()}`,
  };
}

/** Issue 14's targets. */
export const GOALS = {
  cachedRatio: 0.9,
  missVideoMs: 1.5,
  missPageMs: 5,
  mcpLatencyRatio: 1.2,
  mcpThroughputRatio: 0.8,
  rssOverBudgetMb: 50,
};

/** RSS after the memory scenario minus RSS before it, less the cache budget (what the cache does not explain). */
export function rssOverBudgetMb(m: NonNullable<RunResults['memory']>): number {
  return Math.round((m.rssAfterMb - m.rssBeforeMb - m.cacheMaxBytes / 1024 / 1024) * 10) / 10;
}

export function evaluateTargets(r: RunResults): RunResults['targets'] {
  const targets: RunResults['targets'] = [];
  if (r.cached) {
    targets.push({ name: 'cached 30-video page, reelay / bare node:http same bytes', target: `≥ ${GOALS.cachedRatio}`, value: String(r.cached.throughputRatio), met: r.cached.throughputRatio >= GOALS.cachedRatio });
  }
  for (const s of r.miss ?? []) {
    const goal = s.label.startsWith('30-video page') ? GOALS.missPageMs : GOALS.missVideoMs;
    const floor = s.floor ? ` (floor, same platform requests parsed once: ${s.floor.overheadP50Ms} ms)` : '';
    targets.push({ name: `miss overhead p50, ${s.label}`, target: `≤ ${goal} ms`, value: `${s.overheadP50Ms} ms${floor}`, met: s.overheadP50Ms <= goal });
  }
  if (r.coalescing) {
    const c = r.coalescing;
    targets.push({ name: `platform requests for ${c.concurrent} identical cold requests`, target: '1', value: String(c.platformRequests), met: c.platformRequests === 1 });
  }
  if (r.mcp) {
    const m = r.mcp;
    const floor = m.bare ? ` (bare servers of the same bytes: ${m.bare.latencyRatioP50})` : '';
    targets.push({ name: 'MCP / REST p50 latency', target: `≤ ${GOALS.mcpLatencyRatio}`, value: `${m.latencyRatioP50}${floor}`, met: m.latencyRatioP50 <= GOALS.mcpLatencyRatio });
    const loadFloor = m.bare ? ` (bare servers of the same bytes: ${m.bare.throughputRatio})` : '';
    targets.push({ name: 'MCP / REST throughput under load', target: `≥ ${GOALS.mcpThroughputRatio}`, value: `${m.throughputRatio}${loadFloor}`, met: m.throughputRatio >= GOALS.mcpThroughputRatio });
  }
  if (r.memory) {
    const over = rssOverBudgetMb(r.memory);
    targets.push({ name: `RSS after the memory scenario (settled 3 s), over the cache budget (${r.memory.requests} requests / ${r.memory.distinctKeys} keys)`, target: `≤ +${GOALS.rssOverBudgetMb} MB`, value: `${over >= 0 ? '+' : ''}${over} MB`, met: over <= GOALS.rssOverBudgetMb });
  }
  return targets;
}

export function markdownTable(r: RunResults): string {
  const lines = [
    `Run of ${r.date} on ${r.machine.cpu} (${r.machine.cores} cores, ${r.machine.memoryGb} GB), ${r.machine.os}, Node ${r.node}.`,
    `Command: \`${r.command}\`; emulator latency ${r.emulatorLatencyMs} ms; whole run ${r.durationSeconds} s.`,
    '',
    '| Benchmark | Figure | Value |',
    '|---|---|---|',
  ];
  const row = (a: string, b: string, c: string | number) => lines.push(`| ${a} | ${b} | ${c} |`);
  if (r.cached) {
    const c = r.cached;
    row('1. cached 30-video page', `reelay req/s (p50 / p99 ms), ${c.connections} connections`, `${Math.round(c.reelay.requestsPerSecond)} (${c.reelay.latencyP50Ms} / ${c.reelay.latencyP99Ms})`);
    row('', 'bare node:http, same bytes, req/s (p50 / p99 ms)', `${Math.round(c.bare.requestsPerSecond)} (${c.bare.latencyP50Ms} / ${c.bare.latencyP99Ms})`);
    row('', 'ratio reelay / bare', c.throughputRatio);
  }
  for (const s of r.miss ?? []) {
    row(`2. miss: ${s.label}`, 'overhead p50 / p99 ms (end-to-end p50 minus platform time)', `${s.overheadP50Ms} / ${s.overheadP99Ms} (e2e p50 ${s.endToEndP50Ms}, platform p50 ${s.upstreamP50Ms}, ${s.upstreamRequestsPerMiss} req/miss, n=${s.samples})`);
    const parts = (p: { parts?: { ownP50Ms: number; platformHopP50Ms: number; clientHopP50Ms: number } }) =>
      p.parts ? `own work ${p.parts.ownP50Ms}, platform hop ${p.parts.platformHopP50Ms}, client hop ${p.parts.clientHopP50Ms}` : 'no Server-Timing';
    row('', 'overhead parts p50 ms (Server-Timing): own work / platform hop / client hop', `reelay: ${parts(s)}${s.floor ? `; floor: ${parts(s.floor)}` : ''}`);
    if (s.floor) {
      const f = s.floor;
      row('', 'floor: the same platform requests replayed, parsed once, the same answer bytes written; overhead p50 / p99 ms', `${f.overheadP50Ms} / ${f.overheadP99Ms} (e2e p50 ${f.endToEndP50Ms}, platform p50 ${f.upstreamP50Ms}, n=${f.samples})`);
    }
  }
  if (r.coalescing) {
    const c = r.coalescing;
    row('3. coalescing', `platform requests for ${c.concurrent} identical cold requests`, `${c.platformRequests} (one cold request alone: ${c.platformRequestsForOneColdRequest})`);
  }
  if (r.mcp) {
    const m = r.mcp;
    row('4. MCP vs REST', 'p50 ms MCP / REST (ratio)', `${m.mcpP50Ms} / ${m.restP50Ms} (${m.latencyRatioP50})`);
    row('', 'p99 ms MCP / REST (ratio)', `${m.mcpP99Ms} / ${m.restP99Ms} (${m.latencyRatioP99})`);
    row('', 'req/s under load MCP / REST (ratio)', `${Math.round(m.mcpLoad.requestsPerSecond)} / ${Math.round(m.restLoad.requestsPerSecond)} (${m.throughputRatio})`);
    if (m.bare) {
      row('', `bare node:http serving the same bytes (MCP ${Math.round(m.mcpBytes / 1024)} KB, REST ${Math.round(m.restBytes / 1024)} KB): p50 ratio / load ratio`, `${m.bare.latencyRatioP50} / ${m.bare.throughputRatio} (${Math.round(m.bare.mcpLoad.requestsPerSecond)} / ${Math.round(m.bare.restLoad.requestsPerSecond)} req/s)`);
    }
  }
  if (r.memory) {
    const m = r.memory;
    row('5. memory', `RSS before → right after ${m.requests} requests over ${m.distinctKeys} keys → 3 s later (peak)`, `${m.rssBeforeMb} → ${m.rssRightAfterMb} → ${m.rssAfterMb} MB (${m.rssPeakMb}); cache bound ${Math.round(m.cacheMaxBytes / 1024 / 1024)} MB; ${Math.round(m.load.requestsPerSecond)} req/s`);
    row('', 'V8 heap used / external memory, before → after', `${m.heapUsedMb[0]} → ${m.heapUsedMb[1]} MB / ${m.externalMb[0]} → ${m.externalMb[1]} MB`);
    row('', 'V8 heap committed, before → after', `${m.heapTotalMb[0]} → ${m.heapTotalMb[1]} MB`);
    row('', 'RSS 3 s after − before, less the cache budget (right after: same, without settling)', `${rssOverBudgetMb(m)} MB (${Math.round((m.rssRightAfterMb - m.rssBeforeMb - m.cacheMaxBytes / 1024 / 1024) * 10) / 10} MB)`);
  }
  if (r.export) {
    const e = r.export;
    row('6. export', `items/s paging ${e.items} videos to NDJSON (wall clock, process start included)`, `${e.itemsPerSecond} (${e.wallSeconds} s, ${e.platformRequests} platform requests)`);
  }
  if (r.watches) {
    for (const k of r.watches.kinds) {
      row(`7. watches: ${k.kind}`, 'platform requests per run (nothing cached across runs); per watch per hour at every 15m / 1m; service CPU per run', `${k.requestsPerRun}; ${k.requestsPerHourAt15m} / ${k.requestsPerHourAt1m}; ${k.cpuMsPerRun} ms (${k.runs} runs of ${k.watches} watches, ${k.failedRuns} failed)`);
    }
    const i = r.watches.idle;
    row('', `scheduler idle: service CPU with ${i.watches} watches between runs (none: baseline)`, `${i.cpuPercent}% (${i.baselineCpuPercent}%) over ${i.seconds} s`);
  }
  lines.push('', '| Target (issue 14) | Goal | Measured | Met |', '|---|---|---|---|');
  for (const t of r.targets) lines.push(`| ${t.name} | ${t.target} | ${t.value} | ${t.met ? 'yes' : '**no**'} |`);
  return lines.join('\n');
}

/** `bench/results/<date>.json`, with `-2`, `-3`, ... when that day already has a run. */
export function writeResults(dir: string, r: RunResults): string {
  const day = r.date.slice(0, 10);
  let path = join(dir, `${day}.json`);
  for (let n = 2; existsSync(path) && n < 1000; n++) path = join(dir, `${day}-${n}.json`);
  writeFileSync(path, `${JSON.stringify(r, null, 2)}\n`);
  return path;
}

const START = '<!-- bench:results:start -->';
const END = '<!-- bench:results:end -->';

/** Replaces the table between the README's markers; leaves the README alone if they are missing. */
export function updateReadme(readmePath: string, table: string): boolean {
  if (!existsSync(readmePath)) return false;
  const text = readFileSync(readmePath, 'utf8');
  const from = text.indexOf(START);
  const to = text.indexOf(END);
  if (from < 0 || to < from) return false;
  writeFileSync(readmePath, `${text.slice(0, from + START.length)}\n${table}\n${text.slice(to)}`);
  return true;
}
