// `reelay demo`: the real service, pointed at the local platform emulator instead of the platform,
// with a fresh API key and curl examples (named from the emulator's manifest) that work as printed.
import { join } from 'node:path';
import type { Env, Io } from './io.ts';
import { asUsageError } from './errors.ts';
import { parseServiceArgs } from './options.ts';
import { closeOnSignals, listen } from './serve.ts';
import { createApp, createServices } from '../app.ts';
import { startEmulator, type Emulator } from '../../emulator/server.ts';

export function demoExamples(base: string, mcpUrl: string, key: string, manifest: Emulator['manifest']): string {
  const auth = `-H "Authorization: Bearer ${key}"`;
  const m = manifest;
  const lines = [
    `curl ${auth} ${base}/v1/platform/users/${m.users.public}`,
    `curl ${auth} "${base}/v1/platform/users/@${m.users.manyVideos}/videos?count=5&order=popular"`,
    `curl ${auth} ${base}/v1/platform/videos/${m.videos.withReplies.id}`,
    `curl ${auth} "${base}/v1/platform/videos/${m.videos.withReplies.id}/comments?count=5"`,
    `curl ${auth} ${base}/v1/platform/videos/${m.videos.withReplies.id}/comments/${m.videos.withReplies.commentId}/replies`,
    `curl ${auth} ${base}/v1/platform/videos/${m.videos.withTranscripts.id}/transcripts/${m.videos.withTranscripts.languages[0]}`,
    `curl ${auth} -H "Accept: text/vtt" ${base}/v1/platform/videos/${m.videos.withTranscripts.id}/transcripts/${m.videos.withTranscripts.languages[0]}`,
    `curl ${auth} ${base}/v1/platform/users/${m.users.live}/live`,
    `curl ${auth} "${base}/v1/platform/tags/${m.tags.popular}?count=3"`,
    `curl ${auth} ${base}/v1/platform/users/${m.users.private}/videos    # 403 private_account`,
    `curl -X POST ${mcpUrl}/ ${auth} -H "Content-Type: application/json" -d '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"platform_get_user","arguments":{"username":"${m.users.public}","projection_preset":"minimal"}}}'`,
  ];
  return lines.join('\n');
}

export async function runDemo(argv: string[], env: Env, io: Io): Promise<number> {
  let parsed;
  try {
    parsed = parseServiceArgs(argv, env, { 'emulator-port': { type: 'string' } }, { logLevel: env.REELAY_LOG_LEVEL ?? 'warn' });
  } catch (error) {
    throw asUsageError(error);
  }
  const emulatorPort = Number(parsed.extra['emulator-port'] ?? env.REELAY_EMULATOR_PORT ?? 8090);
  if (!Number.isInteger(emulatorPort) || emulatorPort < 0 || emulatorPort > 65535) {
    io.stderr.write('reelay demo: --emulator-port (REELAY_EMULATOR_PORT) must be a port number\n');
    return 2;
  }
  const emulator = await startEmulator({ port: emulatorPort, host: '127.0.0.1', seed: 1, profile: 'strict' });
  // The demo keeps its own store beside the live one, so demo keys never mix with real ones.
  const base = parsed.config;
  const config = Object.freeze({
    ...base,
    dataDir: join(base.dataDir, 'demo'),
    platform: Object.freeze({ ...base.platform, webOrigin: emulator.url, webcastOrigin: emulator.url, identityRatePerSecond: 200 }),
  });
  let app;
  try {
    app = createApp(await createServices(config));
  } catch (error) {
    await emulator.close();
    throw error;
  }
  const { restUrl, mcpUrl } = await listen(app, config).catch(async (error: unknown) => {
    await emulator.close();
    throw error;
  });
  const { key } = await app.services.keys.create({ name: `demo-${new Date().toISOString()}` });
  io.stdout.write(`reelay demo\n\n  Platform emulator: ${emulator.url}\n  REST API:          ${config.publicUrl} (listening on ${restUrl})\n  MCP tool server:   ${config.mcpPublicUrl} (listening on ${mcpUrl})\n  API docs:          ${config.publicUrl}/docs\n  API key:           ${key}\n\nTry:\n\n${demoExamples(config.publicUrl, config.mcpPublicUrl, key, emulator.manifest)}\n\nPress Ctrl-C to stop.\n`);
  await closeOnSignals(app, config, io);
  await emulator.close();
  return 0;
}
