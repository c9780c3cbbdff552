// `reelay get <platform URL>`: prints the object a platform URL names (a video, a profile, a live
// stream, a tag's first page) as JSON, like `yt-dlp -j`, through the same operations and executor
// the REST API uses. Logs go to stderr; stdout carries the JSON alone.
import { parseArgs } from 'node:util';
import type { Env, Io } from './io.ts';
import { loadConfig, STORE_FLAGS } from './options.ts';
import { usageError } from './errors.ts';
import { createLogger, createServices } from '../app.ts';
import { OPERATIONS } from '../operations/registry.ts';
import type { Operation } from '../operations/types.ts';

export type PlatformTarget = { operation: string; params: Record<string, string> };

/** Hosts whose URLs name platform objects, besides the configured web origin (e.g. the emulator). */
const PLATFORM_HOSTS = /^(?:www\.|m\.)?tiktok\.com$/i;

/** Maps the path of a platform web URL to the operation and parameters that read its object. */
export function matchPlatformUrl(raw: string, webOrigin: string): PlatformTarget | undefined {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return undefined;
  if (!PLATFORM_HOSTS.test(url.hostname) && url.host !== new URL(webOrigin).host) return undefined;
  const segments = url.pathname.split('/').filter(Boolean).map((s) => decodeURIComponent(s));
  const [first, second, third] = segments;
  if (first?.startsWith('@') && first.length > 1) {
    const username = first.slice(1);
    if (segments.length === 1) return { operation: 'user', params: { username } };
    if (segments.length === 2 && second === 'live') return { operation: 'live', params: { username } };
    if (segments.length === 3 && (second === 'video' || second === 'photo') && /^\d+$/.test(third)) {
      return { operation: 'video', params: { videoId: third } };
    }
    return undefined;
  }
  if (first === 'tag' && segments.length === 2 && second) return { operation: 'tagVideos', params: { tagName: second } };
  return undefined;
}

export async function runGet(argv: string[], env: Env, io: Io): Promise<number> {
  const { values, positionals } = parseArgs({ args: argv, options: { ...STORE_FLAGS, pretty: { type: 'boolean' } }, allowPositionals: true, strict: true });
  if (positionals.length !== 1) throw usageError('give one platform URL, e.g. https://www.tiktok.com/@someone/video/7234567890123456789');
  const config = loadConfig(env, { dataDir: values['data-dir'], databaseUrl: values['database-url'], logLevel: env.REELAY_LOG_LEVEL ?? 'warn' });
  const target = matchPlatformUrl(positionals[0], config.platform.webOrigin);
  if (!target) {
    throw usageError(`not a platform URL of a video, user, live stream or tag: ${positionals[0]} (e.g. https://www.tiktok.com/@someone, /@someone/video/ID, /@someone/live, /tag/NAME)`);
  }
  const op = OPERATIONS.find((o) => o.name === target.operation) as Operation;
  const services = await createServices(config, { logger: createLogger(config, io.stderr) });
  try {
    const input = services.executor.parse(op, target.params);
    const data = services.executor.view(await services.executor.execute(op, input), 'full');
    io.stdout.write(`${JSON.stringify(data, null, values.pretty ? 2 : undefined)}\n`);
    return 0;
  } finally {
    await services.close();
  }
}
