// What every scenario receives: the emulator behind its timing proxy, a running service and its key.
import type { Emulator } from '../../emulator/server.ts';
import type { Picks } from './measure.ts';
import type { ServiceProcess } from './service-process.ts';
import type { TimingProxy } from './timing-proxy.ts';

export type BenchContext = {
  emulator: Emulator;
  proxy: TimingProxy;
  service: ServiceProcess;
  key: string;
  picks: Picks;
  /** Scratch directory for bodies, path lists and exports. */
  workDir: string;
  log(line: string): void;
};

export const authHeaders = (key: string) => ({ authorization: `Bearer ${key}` });
