// Starts bare-server.ts as its own process: the same bytes as reelay, with nothing else to do.
import { spawn } from 'node:child_process';
import { once } from 'node:events';

const BARE = new URL('./bare-server.ts', import.meta.url).pathname;

export async function startBare(bodyFile: string, contentType?: string): Promise<{ url: string; stop(): void }> {
  const child = spawn(process.execPath, [BARE, bodyFile, ...(contentType ? [contentType] : [])], { stdio: ['ignore', 'pipe', 'inherit'] });
  const [chunk] = (await once(child.stdout, 'data')) as [Buffer];
  return { url: chunk.toString('utf8').trim(), stop: () => child.kill('SIGTERM') };
}
