// Runs `reelay serve` as its own process (as users run it) for the benchmarks and the reliability
// suite: free loopback ports, a key made with the CLI, logs kept in files, RSS read from /proc.
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { appendFileSync, closeSync, openSync, readFileSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../../test/helpers/ports.ts';
import { SERVICE_NODE_FLAGS } from '../../src/node-flags.ts';

export const REPO_ROOT = new URL('../../', import.meta.url).pathname;
const MAIN = join(REPO_ROOT, 'src/main.ts');
const START_TIMEOUT_MS = 30_000;

/** The public URLs (checked by the tool server's Host guard) must be known first. */
export { freePort };

export type ServiceOptions = {
  emulatorUrl: string;
  /** Extra REELAY_* variables (cache size, rate limit, database URL, ...). */
  env?: Record<string, string>;
  dataDir?: string;
  /** Extra Node flags for the service process, e.g. `--cpu-prof`. */
  nodeFlags?: string[];
};

export type ServiceProcess = {
  restUrl: string;
  mcpUrl: string;
  dataDir: string;
  env: Record<string, string>;
  child: ChildProcess;
  stdoutPath: string;
  stderrPath: string;
  /** Everything the service wrote so far (stdout then stderr). */
  logs(): string;
  rssBytes(): number;
  alive(): boolean;
  /** Lines the service logged at fatal level (unhandled rejections, uncaught exceptions). */
  fatalLogs(): string[];
  /**
   * SIGTERM and wait for exit (bounded); returns the exit code or signal. Rejects when the service
   * logged anything at fatal level, so every suite that runs it fails on an unhandled rejection.
   */
  stop(): Promise<string>;
  /** SIGKILL at once and wait for the exit event. */
  kill9(): Promise<void>;
};

/** Environment of every reelay command the harness runs: the emulator as platform, nothing inherited. */
export function serviceEnv(options: ServiceOptions, dataDir: string, restPort = 0, mcpPort = 0): Record<string, string> {
  return {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? '/tmp',
    REELAY_DATA_DIR: dataDir,
    REELAY_HOST: '127.0.0.1',
    REELAY_PORT: String(restPort),
    REELAY_MCP_PORT: String(mcpPort),
    REELAY_PUBLIC_URL: `http://127.0.0.1:${restPort || 1}`,
    REELAY_MCP_PUBLIC_URL: `http://127.0.0.1:${mcpPort || 1}`,
    REELAY_PLATFORM_WEB_ORIGIN: options.emulatorUrl,
    REELAY_PLATFORM_WEBCAST_ORIGIN: options.emulatorUrl,
    REELAY_IDENTITY_RPS: '100000',
    REELAY_RATE_LIMIT_PER_MINUTE: '100000000',
    REELAY_LOG_LEVEL: 'info',
    REELAY_BROWSER: 'off',
    ...options.env,
  };
}

/** Runs one `reelay` CLI command to completion (bounded) and returns its output. */
export function runCli(args: string[], env: Record<string, string>, timeoutMs = 30_000) {
  return runNode([MAIN, ...args], env, timeoutMs);
}

/** Runs a Node script to its end (killed after timeoutMs), collecting its output. */
export async function runNode(args: string[], env: NodeJS.ProcessEnv | undefined, timeoutMs: number) {
  const child = spawn(process.execPath, args, { cwd: REPO_ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
  const [code] = (await once(child, 'exit')) as [number | null];
  clearTimeout(timer);
  return { code, stdout, stderr };
}

/** Creates an API key with `reelay keys create` before the service starts (so serve prints none). */
export async function createKeyWithCli(env: Record<string, string>, name = 'bench'): Promise<string> {
  const { code, stdout, stderr } = await runCli(['keys', 'create', '--name', name], env);
  const key = stdout.trim();
  if (code !== 0 || !key.startsWith('rly_')) throw new Error(`reelay keys create failed (${code}): ${stderr.slice(0, 500)}`);
  return key;
}

/** pino lines at fatal level (60) in a log text. */
export function fatalLines(text: string): string[] {
  return text.split('\n').filter((line) => {
    if (!line.startsWith('{')) return false;
    try {
      return (JSON.parse(line) as { level?: unknown }).level === 60;
    } catch {
      return false;
    }
  });
}

function readText(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return '';
  }
}

/** Resolves once serve reports both listeners (an I/O event, not a timer); rejects on exit or after the bound. */
function waitForListening(child: ChildProcess, stderr: () => string): Promise<void> {
  return new Promise((resolve, reject) => {
    const done = (error?: Error) => {
      clearTimeout(timer);
      child.stderr?.off('data', onData);
      child.off('exit', onExit);
      if (error) reject(error);
      else resolve();
    };
    const onData = () => {
      if (stderr().includes('MCP tool server listening on')) done();
    };
    const onExit = () => done(new Error(`reelay serve exited early:\n${stderr().slice(0, 2000)}`));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      done(new Error(`reelay serve did not start within ${START_TIMEOUT_MS} ms:\n${stderr().slice(0, 2000)}`));
    }, START_TIMEOUT_MS);
    child.stderr?.on('data', onData);
    child.on('exit', onExit);
  });
}

export async function startService(options: ServiceOptions): Promise<ServiceProcess> {
  const dataDir = options.dataDir ?? (await mkdtemp(join(tmpdir(), 'reelay-bench-')));
  const [restPort, mcpPort] = [await freePort(), await freePort()];
  const env = serviceEnv(options, dataDir, restPort, mcpPort);
  const stamp = `${Date.now()}-${Math.random().toString(36).slice(2, 8)}`;
  const stdoutPath = join(dataDir, `serve-${stamp}.out.log`);
  const stderrPath = join(dataDir, `serve-${stamp}.err.log`);
  const out = openSync(stdoutPath, 'a');
  // pino's stdout goes straight to a file; stderr (a few lines) is piped so startup is an event.
  const child = spawn(process.execPath, [...SERVICE_NODE_FLAGS, ...(options.nodeFlags ?? []), MAIN, 'serve'], {
    cwd: REPO_ROOT,
    env,
    stdio: ['ignore', out, 'pipe'],
  });
  closeSync(out);
  let stderrText = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderrText += chunk.toString('utf8');
    appendFileSync(stderrPath, chunk);
  });
  const exited = once(child, 'exit');
  await waitForListening(child, () => stderrText);
  const alive = () => child.exitCode === null && child.signalCode === null;
  return {
    restUrl: `http://127.0.0.1:${restPort}`,
    mcpUrl: `http://127.0.0.1:${mcpPort}`,
    dataDir,
    env,
    child,
    stdoutPath,
    stderrPath,
    logs: () => readText(stdoutPath) + readText(stderrPath),
    rssBytes() {
      const status = readText(`/proc/${child.pid}/status`);
      const kb = /VmRSS:\s+(\d+)\s+kB/.exec(status);
      return kb ? Number(kb[1]) * 1024 : Number.NaN;
    },
    alive,
    fatalLogs: () => fatalLines(readText(stdoutPath)),
    async stop() {
      if (alive()) {
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
        await exited;
        clearTimeout(timer);
      }
      const fatal = fatalLines(readText(stdoutPath));
      if (fatal.length > 0) throw new Error(`reelay serve logged ${fatal.length} fatal error(s):\n${fatal.join('\n').slice(0, 2000)}`);
      return String(child.exitCode ?? child.signalCode);
    },
    async kill9() {
      if (alive()) child.kill('SIGKILL');
      await exited;
    },
  };
}
