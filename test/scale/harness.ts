// In-process stack for the scale tests: the emulator and the real services (as `reelay serve` wires
// them) with a response-cache clock the test moves forward, and the emulator's per-path counters.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEmulator, type Emulator, type EmulatorOptions } from '../../emulator/server.ts';
import { parseConfig, type ConfigInput } from '../../src/config/config.ts';
import { createApp, createLogger, createServices, type App } from '../../src/app.ts';
import { enforceContract } from '../helpers/contract.ts';

export type Answer = { status: number; headers: Record<string, unknown>; body: string; json: any };

export type ScaleStack = {
  emulator: Emulator;
  app: App;
  key: string;
  /** Moves the response cache's clock (only the cache's: identities and breakers keep real time). */
  advanceCacheClock(ms: number): void;
  get(path: string, headers?: Record<string, string>): Promise<Answer>;
  /** Platform requests the emulator received for `path` since it started. */
  count(path: string): number;
  close(): Promise<void>;
};

export type ScaleStackOptions = {
  emulator?: EmulatorOptions;
  config?: ConfigInput;
  /** Where the service's JSON log lines go (set `logLevel` in `config` to see them). */
  logs?: { write(line: string): void };
};

export async function startScaleStack(options: ScaleStackOptions = {}): Promise<ScaleStack> {
  const emulator = await startEmulator({ seed: 1, ...options.emulator });
  const dataDir = await mkdtemp(join(tmpdir(), 'reelay-scale-'));
  const config = parseConfig({
    // The browser transport has its own tests; elsewhere Chromium would only slow fault tests down.
    browser: 'off',
    dataDir,
    publicUrl: 'http://reelay.test',
    mcpPublicUrl: 'http://mcp.reelay.test',
    webOrigin: emulator.url,
    webcastOrigin: emulator.url,
    identityRatePerSecond: '1000',
    requestTimeoutMs: '3000',
    logLevel: 'silent',
    ...options.config,
  });
  let offsetMs = 0;
  const clock = { now: () => Date.now() + offsetMs };
  const services = await createServices(config, { logger: createLogger(config, options.logs), clock });
  const app = createApp(services);
  // Every REST answer and tool result this stack sends is checked against its schema.
  const contracts = [enforceContract(app.rest, 'rest'), enforceContract(app.mcp, 'mcp')];
  const { key } = await services.keys.create({ name: 'scale' });
  return {
    emulator,
    app,
    key,
    advanceCacheClock(ms) {
      offsetMs += ms;
    },
    async get(path, headers = {}) {
      const response = await app.rest.inject({ method: 'GET', url: path, headers: { authorization: `Bearer ${key}`, ...headers } });
      return { status: response.statusCode, headers: response.headers, body: response.body, json: parseJson(response.body) };
    },
    count: (path) => emulator.stats()[path] ?? 0,
    async close() {
      await app.close();
      await emulator.close();
      await rm(dataDir, { recursive: true, force: true });
      for (const contract of contracts) contract.assertKept();
    },
  };
}

export function parseJson(text: string): any {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
