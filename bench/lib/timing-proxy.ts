// A pass-through HTTP proxy in front of the emulator that times each platform request from its
// arrival to the end of the forwarded answer ("the emulator's own latency" as reelay experiences it).
// With `inspect`, it also keeps what the reliability suite needs: status, body checks, cookie values.
import { Agent, createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';

export type UpstreamSample = {
  path: string;
  durationMs: number;
  status: number;
  /** The emulator cut the connection (reset fault). */
  reset: boolean;
  /** Only with `inspect`: the body's size, whether a JSON answer parsed, and its first bytes. */
  bytes?: number;
  jsonValid?: boolean;
  head?: string;
  /** Only while `keepRequests(true)`: the request as it arrived (path with query, headers), to replay it. */
  request?: { url: string; headers: Record<string, string> };
};

export type TimingProxy = {
  url: string;
  /** Samples since the last `take()`, oldest first. */
  take(): UpstreamSample[];
  /** Only with `inspect`: every cookie value the platform set (identity secrets reelay must not leak). */
  cookieValues(): Set<string>;
  /** From now on, keep (or stop keeping) each request's URL and headers in its sample. */
  keepRequests(on: boolean): void;
  close(): Promise<void>;
};

const SAMPLES_MAX = 1_000_000;
const COOKIE_VALUES_MAX = 100_000;

export async function startTimingProxy(target: string, options: { inspect?: boolean } = {}): Promise<TimingProxy> {
  const origin = new URL(target);
  const agent = new Agent({ keepAlive: true, maxSockets: 512 });
  const cookies = new Set<string>();
  let keepRequests = false;
  let samples: UpstreamSample[] = [];
  const record = (sample: UpstreamSample) => {
    if (samples.length < SAMPLES_MAX) samples.push(sample);
  };
  const server = createServer((req, res) => {
    const started = performance.now();
    const path = (req.url ?? '/').split('?')[0];
    const kept = keepRequests ? { url: req.url ?? '/', headers: replayableHeaders(req.headers) } : undefined;
    const upstream = request(
      { host: origin.hostname, port: origin.port, method: req.method, path: req.url, headers: req.headers, agent },
      (answer) => {
        const status = answer.statusCode ?? 502;
        res.writeHead(status, answer.rawHeaders);
        const chunks: Buffer[] = [];
        if (options.inspect) {
          answer.on('data', (chunk: Buffer) => chunks.push(chunk));
          for (const line of answer.headers['set-cookie'] ?? []) {
            const value = /^[^=]+=([^;]*)/.exec(line)?.[1];
            if (value && value.length >= 16 && cookies.size < COOKIE_VALUES_MAX) cookies.add(value);
          }
        }
        answer.pipe(res);
        answer.on('end', () => {
          const sample: UpstreamSample = { path, durationMs: performance.now() - started, status, reset: false, ...(kept ? { request: kept } : {}) };
          if (options.inspect) inspectBody(sample, Buffer.concat(chunks), String(answer.headers['content-type'] ?? ''));
          record(sample);
        });
      },
    );
    // A reset or broken answer from the emulator reaches reelay as a reset too.
    upstream.on('error', () => {
      record({ path, durationMs: performance.now() - started, status: 0, reset: true });
      res.destroy();
    });
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    take() {
      const out = samples;
      samples = [];
      return out;
    },
    cookieValues: () => cookies,
    keepRequests(on) {
      keepRequests = on;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
        agent.destroy();
      }),
  };
}

/** The request's headers without those of its connection, which a replay's own connection sets. */
function replayableHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined || name === 'connection' || name === 'keep-alive' || name === 'content-length') continue;
    out[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

function inspectBody(sample: UpstreamSample, body: Buffer, contentType: string): void {
  sample.bytes = body.length;
  sample.head = body.subarray(0, 256).toString('utf8');
  if (!contentType.includes('json') || body.length === 0) return;
  try {
    JSON.parse(body.toString('utf8'));
    sample.jsonValid = true;
  } catch {
    sample.jsonValid = false;
  }
}
