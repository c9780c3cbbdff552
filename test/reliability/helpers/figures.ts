// The suite's figures: each file adds its counts and prints them as one block at its end.
import { appendFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
export type Figures = Record<string, number | string | Record<string, number>>;

export function printFigures(title: string, figures: Figures): void {
  const lines = [`\n=== reliability figures: ${title} ===`];
  for (const [name, value] of Object.entries(figures)) {
    lines.push(`  ${name}: ${typeof value === 'object' ? JSON.stringify(value) : value}`);
  }
  console.log(lines.join('\n'));
}

export function bump(counts: Record<string, number>, key: string | number, by = 1): void {
  counts[key] = (counts[key] ?? 0) + by;
}

/** What the suite adds up across its files, for the one line the summary prints at the end. */
export type Totals = {
  requests: number;
  faultsInjected: number;
  badInputs: number;
  unexpected5xx: number;
  crashes: number;
  lostWrites: number;
  /** Peak RSS growth of a service over its idle start, and the bound: its cache budget + 100 MB. */
  peakRssGrowthMb: number;
  rssBoundMb: number;
};

/**
 * Each test file runs in its own process under one `node --test` runner: they append their
 * totals to a file named after the runner's pid, which the summary file (run last) adds up.
 */
export function totalsFile(runnerPid = process.ppid): string {
  return join(tmpdir(), `reelay-reliability-totals-${runnerPid}.jsonl`);
}

export function recordTotals(totals: Partial<Totals>): void {
  appendFileSync(totalsFile(), `${JSON.stringify(totals)}\n`);
}

export function sumTotals(lines: Array<Partial<Totals>>): Totals & { files: number } {
  const sum = (name: keyof Totals) => lines.reduce((n, l) => n + (l[name] ?? 0), 0);
  // The service that came closest to (or furthest over) its bound speaks for the run.
  const margin = (l: Partial<Totals>) => (l.peakRssGrowthMb ?? 0) - (l.rssBoundMb ?? 0);
  const measured = lines.filter((l) => l.peakRssGrowthMb !== undefined && l.rssBoundMb !== undefined);
  const worst = measured.reduce<Partial<Totals> | undefined>((w, l) => (w === undefined || margin(l) > margin(w) ? l : w), undefined);
  return {
    files: lines.length,
    requests: sum('requests'),
    faultsInjected: sum('faultsInjected'),
    badInputs: sum('badInputs'),
    unexpected5xx: sum('unexpected5xx'),
    crashes: sum('crashes'),
    lostWrites: sum('lostWrites'),
    peakRssGrowthMb: worst?.peakRssGrowthMb ?? 0,
    rssBoundMb: worst?.rssBoundMb ?? 0,
  };
}
