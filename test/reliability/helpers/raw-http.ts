// HTTP/1.1 over a bare socket, so bad-input tests can send what fetch and node:http refuse to
// (raw paths with dot segments and spaces, unknown methods, huge headers) and read any answer.
import { connect } from 'node:net';

export type RawRequest = {
  method: string;
  path: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
};

export type RawResponse = {
  status: number;
  headers: Record<string, string>;
  body: string;
  /** The server closed the connection without an HTTP answer. */
  noAnswer: boolean;
};

const TIMEOUT_MS = 15_000;

function decodeChunked(data: Buffer): Buffer {
  const parts: Buffer[] = [];
  let offset = 0;
  for (let guard = 0; guard < 100_000 && offset < data.length; guard++) {
    const lineEnd = data.indexOf('\r\n', offset);
    if (lineEnd < 0) break;
    const size = Number.parseInt(data.subarray(offset, lineEnd).toString('latin1'), 16);
    if (!Number.isFinite(size) || size === 0) break;
    parts.push(data.subarray(lineEnd + 2, lineEnd + 2 + size));
    offset = lineEnd + 2 + size + 2;
  }
  return Buffer.concat(parts);
}

export function parseResponse(data: Buffer): RawResponse {
  const split = data.indexOf('\r\n\r\n');
  if (split < 0) return { status: 0, headers: {}, body: data.toString('utf8'), noAnswer: true };
  const [statusLine, ...lines] = data.subarray(0, split).toString('latin1').split('\r\n');
  const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine)?.[1] ?? 0);
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  let body = data.subarray(split + 4);
  if (/chunked/i.test(headers['transfer-encoding'] ?? '')) body = decodeChunked(body);
  return { status, headers, body: body.toString('utf8'), noAnswer: status === 0 };
}

/** One request on its own connection (`Connection: close`); resolves with whatever came back. */
export function rawRequest(baseUrl: string, request: RawRequest): Promise<RawResponse> {
  const url = new URL(baseUrl);
  const body = request.body === undefined ? undefined : Buffer.isBuffer(request.body) ? request.body : Buffer.from(request.body, 'utf8');
  const headers: Record<string, string> = { host: url.host, connection: 'close', ...request.headers };
  if (body !== undefined && headers['content-length'] === undefined) headers['content-length'] = String(body.length);
  const head = `${request.method} ${request.path} HTTP/1.1\r\n${Object.entries(headers).map(([k, v]) => `${k}: ${v}`).join('\r\n')}\r\n\r\n`;
  return new Promise((resolve, reject) => {
    const socket = connect(Number(url.port), url.hostname);
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no answer within ${TIMEOUT_MS} ms to ${request.method} ${request.path.slice(0, 100)}`));
    }, TIMEOUT_MS);
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    // The server may answer and close before reading a huge request: EPIPE/ECONNRESET then is fine.
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(parseResponse(Buffer.concat(chunks)));
    });
    socket.write(Buffer.from(head, 'utf8'));
    if (body !== undefined) socket.write(body);
  });
}
