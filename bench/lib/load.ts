// Runs a load (autocannon in its own process, see load-worker.ts) and returns its summary.
import { spawn } from 'node:child_process';
import { once } from 'node:events';

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
  const child = spawn(process.execPath, [WORKER, JSON.stringify(spec)], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
  const [code] = (await once(child, 'exit')) as [number | null];
  clearTimeout(timer);
  if (code !== 0) throw new Error(`load worker failed (${code}): ${stderr.slice(0, 1000)}`);
  return JSON.parse(stdout.trim().split('\n').at(-1) as string) as LoadSummary;
}
