// Which malloc `reelay serve` runs on. glibc's malloc keeps what a busy service freed (per-thread
// arenas, fragmentation from churned cache bodies and impit's buffers) as resident memory; jemalloc
// returns it. Measured with `npm run bench -- --only memory` (64 MiB cache budget, 200,000 requests):
// RSS over the budget +93.7 MB on glibc, +15.8 MB on jemalloc with the settings below, same
// throughput (bench/README.md, "Memory"). The library must be loaded before the process starts
// (LD_PRELOAD), so serve replaces itself once with `process.execve` (same PID, same stdio) when
// the system has jemalloc; `REELAY_ALLOCATOR` chooses. Only node: built-ins here: it runs before
// the service's modules are loaded.
import { readFileSync } from 'node:fs';

/** Where Debian/Ubuntu (per architecture), Fedora and Alpine install libjemalloc2. */
export const JEMALLOC_PATHS: readonly string[] = [
  '/usr/lib/x86_64-linux-gnu/libjemalloc.so.2',
  '/usr/lib/aarch64-linux-gnu/libjemalloc.so.2',
  '/usr/lib64/libjemalloc.so.2',
  '/usr/lib/libjemalloc.so.2',
  '/usr/local/lib/libjemalloc.so.2',
];

/**
 * Return freed pages within a second (a background thread does it, not the request path) and
 * drop the "muzzy" stage, so RSS follows the live heap instead of its peak.
 */
export const JEMALLOC_CONF = 'background_thread:true,dirty_decay_ms:1000,muzzy_decay_ms:0';

/**
 * Set in the replaced process, so a preload the loader refused never loops; `preload` or
 * `preload+conf` says what was added, so `forgetAddedAllocator` can take it back out.
 */
const EXEC_MARK = 'REELAY_ALLOCATOR_EXEC';

export type AllocatorMode = 'auto' | 'jemalloc' | 'system';

export type AllocatorPlan =
  /** Replace the process with one that preloads `path`, with these variables added. */
  | { action: 'exec'; path: string; env: Record<string, string> }
  /** Run as is: jemalloc already preloaded, the system's malloc chosen, or none found. */
  | { action: 'stay'; reason: 'preloaded' | 'system' | 'not_found' | 'unsupported' | 'after_exec' };

export function parseAllocatorMode(value: string | undefined): AllocatorMode {
  const mode = (value ?? '').trim() || 'auto';
  if (mode === 'auto' || mode === 'jemalloc' || mode === 'system') return mode;
  throw new Error(`REELAY_ALLOCATOR must be auto, jemalloc or system, got "${value}"`);
}

/**
 * What serve does about its allocator, from its environment and which files exist. With
 * `REELAY_ALLOCATOR=jemalloc` a missing library is an error naming the variable (fails closed).
 */
export function planAllocator(
  env: Record<string, string | undefined>,
  exists: (path: string) => boolean,
  canExec: boolean,
): AllocatorPlan {
  const mode = parseAllocatorMode(env.REELAY_ALLOCATOR);
  if (mode === 'system') return { action: 'stay', reason: 'system' };
  if (/libjemalloc/.test(env.LD_PRELOAD ?? '')) return { action: 'stay', reason: 'preloaded' };
  if (env[EXEC_MARK] !== undefined) return { action: 'stay', reason: 'after_exec' };
  const path = JEMALLOC_PATHS.find(exists);
  if (path === undefined) {
    if (mode === 'jemalloc') {
      throw new Error(`REELAY_ALLOCATOR=jemalloc, but no libjemalloc.so.2 was found (looked in ${JEMALLOC_PATHS.join(', ')}); install libjemalloc2 or set REELAY_ALLOCATOR=auto`);
    }
    return { action: 'stay', reason: 'not_found' };
  }
  if (!canExec) return { action: 'stay', reason: 'unsupported' };
  const preload = env.LD_PRELOAD ? `${path}:${env.LD_PRELOAD}` : path;
  // An operator's own MALLOC_CONF is kept.
  const mark = env.MALLOC_CONF === undefined ? 'preload+conf' : 'preload';
  return { action: 'exec', path, env: { LD_PRELOAD: preload, MALLOC_CONF: env.MALLOC_CONF ?? JEMALLOC_CONF, [EXEC_MARK]: mark } };
}

/**
 * Once running on jemalloc, the variables serve added are taken out of its environment again, so
 * the processes it starts get the operator's: Chromium (the browser transport) aborts at start with
 * jemalloc preloaded.
 */
export function forgetAddedAllocator(env: Record<string, string | undefined>): void {
  const mark = env[EXEC_MARK];
  if (mark === undefined) return;
  delete env[EXEC_MARK];
  const [first, ...rest] = (env.LD_PRELOAD ?? '').split(':');
  if (JEMALLOC_PATHS.includes(first)) {
    if (rest.length > 0) env.LD_PRELOAD = rest.join(':');
    else delete env.LD_PRELOAD;
  }
  if (mark === 'preload+conf') delete env.MALLOC_CONF;
}

/** The malloc this process really runs on, from its memory map (Linux); `system` elsewhere. */
export function activeAllocator(readMaps: () => string = () => readFileSync('/proc/self/maps', 'utf8')): { name: 'jemalloc' | 'system'; path?: string } {
  try {
    const line = readMaps()
      .split('\n')
      .find((l) => /libjemalloc[^/]*\.so/.test(l));
    if (line) return { name: 'jemalloc', path: line.slice(line.indexOf('/')) };
  } catch {
    // No /proc: not Linux, where only the system's allocator is used.
  }
  return { name: 'system' };
}

/** One line for serve's start-up output: which allocator, and how to change it. */
export function describeAllocator(active: ReturnType<typeof activeAllocator>, mode: AllocatorMode): string {
  if (active.name === 'jemalloc') return `Memory allocator: jemalloc (${active.path}); REELAY_ALLOCATOR=system to use the system's`;
  if (mode === 'system') return "Memory allocator: the system's (REELAY_ALLOCATOR=system)";
  return 'Memory allocator: the system\'s; install libjemalloc2 for a smaller resident set (README, "Memory allocator")';
}
