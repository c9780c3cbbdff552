// Starts the platform emulator and a real platform client pointed at it, for the integration tests.
// The emulator is optional while it is being built: tests skip loudly without it (fail under CI).
import { existsSync } from 'node:fs';
import { createPlatformClient, type PlatformClientDeps } from '../../src/upstream/client.ts';
import { resolveUpstreamConfig, type UpstreamConfig } from '../../src/upstream/config.ts';
import type { OutcomeEvent } from '../../src/upstream/request.ts';

const SERVER = new URL('../../emulator/server.ts', import.meta.url);

export type FaultRule = { path: string; probability: number; kind: string; status?: number; retryAfterSeconds?: number; latencyMs?: number };

export type Emulator = {
  url: string;
  manifest: {
    users: Record<string, string>;
    videos: {
      withTranscripts: { id: string; languages: string[] };
      withReplies: { id: string; commentId: string };
      deleted: string;
      photo: string;
      private?: string;
      geoBlocked?: string;
    };
    tags: { popular: string; popularId?: string };
  };
  setFaults(cfg: { rules: FaultRule[] }): void;
  stats(): unknown;
  close(): Promise<void>;
};

export const emulatorMissing = !existsSync(SERVER);

/** Skip reason for node:test, or false; under CI=true a missing emulator fails instead. */
export function skipWithoutEmulator(): string | false {
  if (!emulatorMissing) return false;
  if (process.env.CI === 'true') throw new Error('emulator/server.ts is missing; integration tests cannot run');
  console.warn('SKIPPING upstream integration tests: emulator/server.ts does not exist yet');
  return 'emulator/server.ts does not exist yet';
}

export async function startEmulator(options: Record<string, unknown> = {}): Promise<Emulator> {
  const mod = (await import(SERVER.href)) as { startEmulator(o: Record<string, unknown>): Promise<Emulator> };
  return mod.startEmulator({ port: 0, seed: 7, ...options });
}

export function clientFor(
  emulator: Emulator,
  overrides: Partial<UpstreamConfig> = {},
  extra: Partial<PlatformClientDeps> = {},
) {
  const outcomes: OutcomeEvent[] = [];
  const config = resolveUpstreamConfig({
    webOrigin: emulator.url,
    webcastOrigin: emulator.url,
    identityCount: 2,
    identityRatePerSecond: 1_000,
    retryBaseDelayMs: 5,
    retryMaxDelayMs: 50,
    requestTimeoutMs: 5_000,
    maxAttempts: 4,
    ...overrides,
  });
  const client = createPlatformClient({ config, onOutcome: (e) => outcomes.push(e), ...extra });
  return { client, outcomes };
}
