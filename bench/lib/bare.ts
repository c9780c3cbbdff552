// Starts the baselines as their own processes: bare-server.ts (the same bytes as reelay, with
// nothing else to do) and floor-server.ts (a miss's platform requests replayed and parsed once).
import { spawn } from 'node:child_process';
import { once } from 'node:events';

const BARE = new URL('./bare-server.ts', import.meta.url).pathname;
const FLOOR = new URL('./floor-server.ts', import.meta.url).pathname;

async function startProcess(args: string[]): Promise<{ url: string; stop(): void }> {
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
  const [chunk] = (await once(child.stdout, 'data')) as [Buffer];
  return { url: chunk.toString('utf8').trim(), stop: () => child.kill('SIGTERM') };
}

export function startBare(bodyFile: string, contentType?: string): Promise<{ url: string; stop(): void }> {
  return startProcess([BARE, bodyFile, ...(contentType ? [contentType] : [])]);
}

export function startFloor(planFile: string): Promise<{ url: string; stop(): void }> {
  return startProcess([FLOOR, planFile]);
}
