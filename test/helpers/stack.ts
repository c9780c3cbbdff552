// Test harness: the platform emulator plus the real service (embedded store, memory cache) wired
// exactly as `reelay serve` wires them, driven in-process with Fastify's inject().
import { after, before } from 'node:test';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEmulator, type Emulator, type EmulatorOptions } from '../../emulator/server.ts';
import { parseConfig, type ConfigInput } from '../../src/config/config.ts';
import { createApp, createLogger, createServices, type App, type ServicesOptions } from '../../src/app.ts';
import { enforceContract, type Contract } from './contract.ts';

export type Stack = {
  emulator: Emulator;
  app: App;
  key: string;
  logs: string[];
  publicUrl: string;
  /** The schema checks on every REST answer and tool result (test/helpers/contract.ts). */
  contract: { rest: Contract; mcp: Contract };
  get(path: string, headers?: Record<string, string>): Promise<{ status: number; headers: Record<string, unknown>; body: string; json: any }>;
  close(): Promise<void>;
};

export async function startStack(options: { emulator?: EmulatorOptions; config?: ConfigInput; emulatorInstance?: Emulator; services?: Omit<ServicesOptions, 'logger'> } = {}): Promise<Stack> {
  const emulator = options.emulatorInstance ?? (await startEmulator({ seed: 1, ...options.emulator }));
  const dataDir = await mkdtemp(join(tmpdir(), 'reelay-test-'));
  const publicUrl = 'http://reelay.test';
  const config = parseConfig({
    // The browser transport has its own tests; elsewhere Chromium would only slow fault tests down.
    browser: 'off',
    dataDir,
    publicUrl,
    mcpPublicUrl: 'http://mcp.reelay.test',
    webOrigin: emulator.url,
    webcastOrigin: emulator.url,
    identityRatePerSecond: '1000',
    requestTimeoutMs: '3000',
    logLevel: 'info',
    ...options.config,
  });
  const logs: string[] = [];
  const logger = createLogger(config, { write: (line: string) => void logs.push(line) });
  const services = await createServices(config, { ...options.services, logger });
  const app = createApp(services);
  // Every REST answer and tool result this stack sends is checked against its schema.
  const contract = { rest: enforceContract(app.rest, 'rest'), mcp: enforceContract(app.mcp, 'mcp') };
  const { key } = await services.keys.create({ name: 'test' });
  return {
    emulator,
    app,
    key,
    logs,
    publicUrl,
    contract,
    async get(path, headers = {}) {
      const response = await app.rest.inject({ method: 'GET', url: path, headers: { authorization: `Bearer ${key}`, ...headers } });
      let json: unknown;
      try {
        json = JSON.parse(response.body);
      } catch {
        json = undefined;
      }
      return { status: response.statusCode, headers: response.headers, body: response.body, json };
    },
    async close() {
      await app.close();
      if (!options.emulatorInstance) await emulator.close();
      await rm(dataDir, { recursive: true, force: true });
      contract.rest.assertKept();
      contract.mcp.assertKept();
    },
  };
}

/** One stack for a whole test file: started before its tests, closed after; read it through the getters. */
export function useStack(options: Parameters<typeof startStack>[0] = {}): { readonly stack: Stack; readonly m: any } {
  let stack: Stack | undefined;
  before(async () => {
    stack = await startStack(options);
  });
  after(() => stack?.close());
  return {
    get stack() {
      if (!stack) throw new Error('the stack is used before it started');
      return stack;
    },
    get m() {
      return this.stack.emulator.manifest;
    },
  };
}
