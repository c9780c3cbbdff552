// The platform emulator: one HTTP origin serving the web, webcast and CDN hosts' paths from a
// seeded dataset (or a HAR replay), with the platform's checks, faults and control endpoints.
import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { setTimeout as delay } from 'node:timers/promises';
import { createDataset } from './dataset/dataset.ts';
import type { Manifest } from './dataset/dataset.ts';
import { FaultConfig } from './faults.ts';
import { createTokens, loadXBogus, parseCookies } from './guard.ts';
import { loadReplay } from './har.ts';
import { createRng } from './prng.ts';
import { newLogId } from './wire/envelope.ts';
import { createPipeline } from './pipeline.ts';
import type { MediaStats, PipelineState } from './pipeline.ts';
import { MEDIA_URL_TTL_SECONDS } from './wire/urls.ts';
import type { GuardProfile } from './guard.ts';
import { loadSdkScript } from './sdk.ts';
import { overlayControl } from './overlays.ts';

export type { FaultConfig } from './faults.ts';
export type { Manifest } from './dataset/dataset.ts';
export type { MediaStats } from './pipeline.ts';

export type EmulatorOptions = {
  port?: number;
  host?: string;
  seed?: number;
  faults?: FaultConfig;
  harFile?: string;
  /** Fraction (0..1) of HTML page requests without a valid `_waftokenid` that get the WAF page. */
  wafRate?: number;
  /** Fixed added latency on every platform request (benchmarks). */
  latencyMs?: number;
  /** `strict` (default): today's checks (X-Gnarly bound to the request, issued msToken, API-call headers); `lenient`: format only. */
  profile?: GuardProfile;
  /** Lifetime of the CDN links in bodies (`expire`); default two days, as on the platform. */
  mediaUrlTtlSeconds?: number;
};

export type Emulator = {
  url: string;
  /** The checks it applies: `strict` (today's platform) or `lenient`. */
  profile: GuardProfile;
  port: number;
  manifest: Manifest;
  setFaults(faults: FaultConfig): void;
  stats(): Record<string, number>;
  /** Streamed media answers: started, completed, aborted (the reader went away), bytes sent. */
  mediaStats(): MediaStats;
  /** Lifetime of CDN links handed out from now on; 0 hands out links that are already expired. */
  setMediaUrlTtl(seconds: number): void;
  close(): Promise<void>;
};

const BODY_LIMIT_BYTES = 1_000_000;

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > BODY_LIMIT_BYTES) throw new Error('body too large');
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

export async function startEmulator(options: EmulatorOptions = {}): Promise<Emulator> {
  const seed = options.seed ?? 1;
  const state: PipelineState = {
    ds: createDataset(seed),
    signer: await loadXBogus(),
    profile: options.profile ?? 'strict',
    tokens: createTokens(),
    replay: options.harFile ? loadReplay(options.harFile) : undefined,
    faults: FaultConfig.parse(options.faults ?? { rules: [] }),
    counts: new Map(),
    random: createRng(seed ^ 0x5eed1e),
    wafRate: Math.min(Math.max(options.wafRate ?? 0, 0), 1),
    apiResponses: 0,
    sdk: await loadSdkScript().catch(() => undefined),
    media: { started: 0, completed: 0, aborted: 0, bytesSent: 0 },
  };
  let mediaUrlTtlSeconds = options.mediaUrlTtlSeconds ?? MEDIA_URL_TTL_SECONDS;
  const pipeline = createPipeline(state);
  let boundOrigin = '';

  async function control(req: IncomingMessage, res: ServerResponse, path: string): Promise<void> {
    const method = req.method ?? 'GET';
    if (path === '/__emulator/manifest' && method === 'GET') return sendJson(res, 200, state.ds.manifest);
    if (path === '/__emulator/stats' && method === 'GET') {
      return sendJson(res, 200, { requests: Object.fromEntries(state.counts), media: state.media });
    }
    if (path === '/__emulator/stats/reset' && method === 'POST') {
      state.counts.clear();
      state.media = { started: 0, completed: 0, aborted: 0, bytesSent: 0 };
      return sendJson(res, 200, { requests: {}, media: state.media });
    }
    if (path === '/__emulator/media' && method === 'GET') return sendJson(res, 200, { urlTtlSeconds: mediaUrlTtlSeconds });
    if (path === '/__emulator/media' && method === 'PUT') {
      let ttl: unknown;
      try {
        ttl = (JSON.parse(await readBody(req)) as { urlTtlSeconds?: unknown }).urlTtlSeconds;
      } catch {
        return sendJson(res, 400, { error: 'invalid_json' });
      }
      if (!Number.isSafeInteger(ttl) || (ttl as number) < 0) return sendJson(res, 400, { error: 'invalid_media', detail: 'urlTtlSeconds must be an integer >= 0' });
      mediaUrlTtlSeconds = ttl as number;
      return sendJson(res, 200, { urlTtlSeconds: mediaUrlTtlSeconds });
    }
    if (path === '/__emulator/faults' && method === 'GET') return sendJson(res, 200, state.faults);
    if (path === '/__emulator/faults' && method === 'POST') {
      let parsed: ReturnType<typeof FaultConfig.safeParse>;
      try {
        parsed = FaultConfig.safeParse(JSON.parse(await readBody(req)));
      } catch {
        return sendJson(res, 400, { error: 'invalid_json' });
      }
      if (!parsed.success) return sendJson(res, 400, { error: 'invalid_faults', issues: parsed.error.issues });
      state.faults = parsed.data;
      return sendJson(res, 200, state.faults);
    }
    if (path.startsWith('/__emulator/users/') || path.startsWith('/__emulator/videos/')) {
      let body: string;
      try {
        body = method === 'GET' ? '' : await readBody(req);
      } catch {
        return sendJson(res, 413, { error: 'body_too_large' });
      }
      const reply = overlayControl(state.ds, method, path, body, Date.now());
      if (reply) return sendJson(res, reply.status, reply.body);
    }
    return sendJson(res, 404, { error: 'not_found' });
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const rawUrl = req.url ?? '/';
    const q = rawUrl.indexOf('?');
    const path = q < 0 ? rawUrl : rawUrl.slice(0, q);
    if (path.startsWith('/__emulator/')) return control(req, res, path);
    if (options.latencyMs) await delay(options.latencyMs);
    const nowMs = Date.now();
    const host = req.headers.host;
    await pipeline(req, res, {
      path,
      rawQuery: q < 0 ? '' : rawUrl.slice(q + 1),
      cookies: parseCookies(req.headers.cookie),
      nowMs,
      ctx: { origin: host ? `http://${host}` : boundOrigin, logid: newLogId(nowMs), nowSeconds: Math.floor(nowMs / 1000), mediaUrlTtlSeconds },
    });
  }

  const sockets = new Set<Socket>();
  const server = createServer((req, res) => {
    handle(req, res).catch(() => {
      // Unknown failures answer a bare 500: internal text never leaves the emulator.
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
      res.end('Internal Server Error');
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
  });
  const address = server.address() as AddressInfo;
  const hostText = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  boundOrigin = `http://${hostText}:${address.port}`;
  return {
    url: boundOrigin,
    port: address.port,
    manifest: state.ds.manifest,
    profile: state.profile,
    setFaults(faults) {
      state.faults = FaultConfig.parse(faults);
    },
    stats: () => Object.fromEntries(state.counts),
    mediaStats: () => ({ ...state.media }),
    setMediaUrlTtl(seconds) {
      mediaUrlTtlSeconds = seconds;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const socket of sockets) socket.destroy();
      }),
  };
}
