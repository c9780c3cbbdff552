// Child processes of the real entry point (`node src/main.ts serve|keys …`) for the scale tests:
// start on port 0 and read the bound URLs from stderr, run CLI commands, stop with a signal.
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { fatalLines } from '../../bench/lib/service-process.ts';
import { SERVICE_NODE_FLAGS } from '../../src/node-flags.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const MAIN = fileURLToPath(new URL('../../src/main.ts', import.meta.url));

export type ServiceNode = {
  restUrl: string;
  mcpUrl: string;
  child: ChildProcess;
  /** Everything the process wrote to stderr so far. */
  stderr(): string;
  /** Lines the process logged at fatal level so far. */
  fatalLogs(): string[];
  /** Resolves with the exit code (or the signal name) once the process has ended. */
  exited: Promise<number | string>;
  /** Signals the process and waits for its exit; rejects when it logged anything at fatal level. */
  stop(signal?: NodeJS.Signals): Promise<number | string>;
};

/** Only what the child needs: the caller's REELAY_* settings, never the test runner's environment. */
export function childEnv(settings: Record<string, string>): Record<string, string> {
  return { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', REELAY_LOG_LEVEL: 'warn', ...settings };
}

function exitOf(child: ChildProcess): Promise<number | string> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve(child.exitCode);
    child.once('exit', (code, signal) => resolve(code ?? signal ?? 'unknown'));
  });
}

/** Starts `reelay serve`; rejects with its stderr if it exits or is not listening within `timeoutMs` (generous: a loaded 2-core machine can take 20 s to start a node). */
export async function startNode(settings: Record<string, string>, timeoutMs = 90_000): Promise<ServiceNode> {
  const child = spawn(process.execPath, [...SERVICE_NODE_FLAGS, MAIN, 'serve'], {
    cwd: ROOT,
    env: childEnv({ REELAY_PORT: '0', REELAY_MCP_PORT: '0', ...settings }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  let stdout = '';
  child.stdout?.on('data', (chunk: Buffer) => void (stdout += chunk.toString('utf8')));
  // 'close' comes after the last output was read, unlike 'exit'.
  const closed = new Promise<void>((resolve) => child.once('close', () => resolve()));
  const exited = exitOf(child);
  const urls = await new Promise<{ restUrl: string; mcpUrl: string }>((resolve, reject) => {
    const timer = setTimeout(() => fail(new Error(`reelay serve did not listen within ${timeoutMs} ms:\n${stderr}`)), timeoutMs);
    const onData = (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
      const rest = /REST API listening on (\S+)/.exec(stderr);
      const mcp = /MCP tool server listening on (\S+)/.exec(stderr);
      if (rest && mcp) {
        clearTimeout(timer);
        resolve({ restUrl: rest[1], mcpUrl: mcp[1] });
      }
    };
    function fail(error: Error) {
      clearTimeout(timer);
      child.kill('SIGKILL');
      reject(error);
    }
    child.stderr?.on('data', onData);
    void exited.then((code) => fail(new Error(`reelay serve exited (${code}) before listening:\n${stderr}`)));
  });
  return {
    ...urls,
    child,
    exited,
    stderr: () => stderr,
    fatalLogs: () => fatalLines(stdout),
    async stop(signal = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      const code = await exited;
      await closed;
      const fatal = fatalLines(stdout);
      if (fatal.length > 0) throw new Error(`reelay serve logged ${fatal.length} fatal error(s):\n${fatal.join('\n').slice(0, 2000)}`);
      return code;
    },
  };
}

export type CliResult = { code: number | string; stdout: string; stderr: string };

/** Runs `reelay <args>` to completion; killed (and reported) after `timeoutMs`. */
export function runReelay(args: string[], settings: Record<string, string>, timeoutMs = 90_000): Promise<CliResult> {
  const child = spawn(process.execPath, [MAIN, ...args], { cwd: ROOT, env: childEnv(settings), stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => void (stdout += chunk.toString('utf8')));
  child.stderr?.on('data', (chunk: Buffer) => void (stderr += chunk.toString('utf8')));
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
  return exitOf(child).then((code) => {
    clearTimeout(timer);
    return { code, stdout, stderr };
  });
}

/** A port on 127.0.0.1 that nothing listens on (bound, then released). */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
