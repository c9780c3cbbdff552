// The reliability suite's stack: the emulator in the test process behind an inspecting proxy, and
// the service as its own process (`reelay serve`), so crashes, exits and RSS are the real ones.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEmulator, type Emulator, type EmulatorOptions } from '../../../emulator/server.ts';
import { createKeyWithCli, serviceEnv, startService, type ServiceProcess } from '../../../bench/lib/service-process.ts';
import { startTimingProxy, type TimingProxy } from '../../../bench/lib/timing-proxy.ts';

export type Stack = {
  emulator: Emulator;
  proxy: TimingProxy;
  service: ServiceProcess;
  key: string;
  dataDir: string;
  /** Starts the service again on the same data (after a stop or a kill). */
  restart(): Promise<ServiceProcess>;
  close(): Promise<void>;
};

export async function startStack(options: { env?: Record<string, string>; nodeFlags?: string[]; emulator?: EmulatorOptions } = {}): Promise<Stack> {
  const emulator = await startEmulator({ seed: 1, ...options.emulator });
  const proxy = await startTimingProxy(emulator.url, { inspect: true });
  const dataDir = await mkdtemp(join(tmpdir(), 'reelay-reliability-'));
  const serviceOptions = { emulatorUrl: proxy.url, dataDir, env: options.env, nodeFlags: options.nodeFlags };
  const key = await createKeyWithCli(serviceEnv(serviceOptions, dataDir), 'reliability');
  const stack: Stack = {
    emulator,
    proxy,
    service: await startService(serviceOptions),
    key,
    dataDir,
    async restart() {
      if (stack.service.alive()) await stack.service.stop();
      stack.service = await startService(serviceOptions);
      return stack.service;
    },
    async close() {
      await stack.service.stop();
      await proxy.close();
      await emulator.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
  return stack;
}

/** Text that looks like an internal error escaped: stack frames, source paths, Node internals. */
export const STACK_TRACE = /\n\s+at\s|\bat\s+[\w.<>]+\s+\(|\.ts:\d+|node:internal|node_modules\/|"stack"\s*:/;
