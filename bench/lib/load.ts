// Runs a load (autocannon in its own process, see load-worker.ts) and returns its summary.
import { runNode } from './service-process.ts';

export type LoadSpec = {
  url: string;
  connections: number;
  durationSeconds?: number;
  /** Total requests instead of a duration. */
  amount?: number;
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  /** JSON file holding an array of paths, requested in turn. */
  pathsFile?: string;
};

export type LoadSummary = {
  requestsPerSecond: number;
  requestsTotal: number;
  latencyP50Ms: number;
  latencyP99Ms: number;
  latencyMeanMs: number;
  errors: number;
  timeouts: number;
  non2xx: number;
  durationSeconds: number;
  statusCodes: Record<string, number>;
};

const WORKER = new URL('./load-worker.ts', import.meta.url).pathname;

export async function runLoad(spec: LoadSpec, timeoutMs = 300_000): Promise<LoadSummary> {
  const { code, stdout, stderr } = await runNode([WORKER, JSON.stringify(spec)], process.env, timeoutMs);
  if (code !== 0) throw new Error(`load worker failed (${code}): ${stderr.slice(0, 1000)}`);
  const summary = JSON.parse(stdout.trim().split('\n').at(-1) as string) as LoadSummary;
  // A refusal (429, 401) or an error is cheaper than an answer: a throughput figure that counts
  // them would flatter the server, so a measured load must be all 2xx.
  if (summary.non2xx > 0 || summary.errors > 0 || summary.timeouts > 0) {
    throw new Error(`load on ${spec.url} was not all 2xx: ${JSON.stringify(summary.statusCodes)}, ${summary.errors} errors, ${summary.timeouts} timeouts`);
  }
  return summary;
}
