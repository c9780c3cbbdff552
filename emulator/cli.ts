// `reelay emulator` / `npm run emulator`: starts the platform emulator from command-line flags,
// prints where it listens and a few entities to try, and stops cleanly on SIGINT/SIGTERM.
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { startEmulator } from './server.ts';
import type { EmulatorOptions } from './server.ts';

function numberFlag(value: string | undefined, name: string): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isFinite(n)) throw new Error(`--${name} must be a number, got "${value}"`);
  return n;
}

export function parseEmulatorArgs(argv: string[]): EmulatorOptions {
  const { values } = parseArgs({
    args: argv,
    options: {
      port: { type: 'string' },
      host: { type: 'string' },
      seed: { type: 'string' },
      faults: { type: 'string' },
      har: { type: 'string' },
      'waf-rate': { type: 'string' },
      'latency-ms': { type: 'string' },
      profile: { type: 'string' },
      'media-url-ttl-seconds': { type: 'string' },
    },
    strict: true,
    allowPositionals: false,
  });
  const profile = values.profile ?? 'strict';
  if (profile !== 'strict' && profile !== 'lenient') throw new Error(`--profile must be strict or lenient, got "${profile}"`);
  return {
    profile,
    port: numberFlag(values.port, 'port'),
    host: values.host,
    seed: numberFlag(values.seed, 'seed'),
    faults: values.faults ? JSON.parse(readFileSync(values.faults, 'utf8')) : undefined,
    harFile: values.har,
    wafRate: numberFlag(values['waf-rate'], 'waf-rate'),
    latencyMs: numberFlag(values['latency-ms'], 'latency-ms'),
    mediaUrlTtlSeconds: numberFlag(values['media-url-ttl-seconds'], 'media-url-ttl-seconds'),
  };
}

export async function runEmulatorCli(argv: string[]): Promise<void> {
  const emulator = await startEmulator(parseEmulatorArgs(argv));
  const m = emulator.manifest;
  const lines = [
    `platform emulator listening on ${emulator.url} (seed ${m.seed}, profile ${emulator.profile})`,
    `  users:  public @${m.users.public}, private @${m.users.private}, live @${m.users.live}, many videos @${m.users.manyVideos}`,
    `  videos: with transcripts ${m.videos.withTranscripts.id}, with replies ${m.videos.withReplies.id}, deleted ${m.videos.deleted}`,
    `  tag:    #${m.tags.popular}`,
    `  manifest: ${emulator.url}/__emulator/manifest   stats: ${emulator.url}/__emulator/stats`,
  ];
  process.stdout.write(lines.join('\n') + '\n');
  await new Promise<void>((resolve) => {
    const stop = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolve();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
  await emulator.close();
  process.stdout.write('platform emulator stopped\n');
}
