// Answers for requests that never reach a route: bytes that are not HTTP, oversized headers and
// CONNECT, and a lingering close so an answer sent before a large body was read still arrives.
// Both listeners use it so even these get their edge's error format, never a bare reset.
import { STATUS_CODES, type Server } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';

/**
 * How long a closing connection keeps reading what the client still sends. Closing a socket with
 * unread bytes makes the kernel send a reset, and a client still writing its body then loses the
 * answer already on its way (RFC 9112 §9.6; Apache and nginx linger the same way).
 */
export const LINGER_MS = 2_000;

/**
 * Ends our side (the answer, then FIN), keeps reading and discarding the client's bytes, and
 * destroys the socket once the client closes its side or after `lingerMs`, whichever comes first.
 */
export function lingeringClose(socket: Duplex, lingerMs = LINGER_MS, chunk?: string): void {
  if (socket.destroyed) return;
  const timer = setTimeout(() => socket.destroy(), lingerMs);
  timer.unref();
  socket.once('close', () => clearTimeout(timer));
  socket.once('end', () => socket.destroy());
  socket.on('error', () => socket.destroy());
  if (chunk === undefined) socket.end();
  else socket.end(chunk);
  socket.resume();
}

/**
 * Node closes a connection whose answer said `Connection: close` as soon as the answer is written,
 * even when the request body was never read (an early 401, 413 or 415): linger there too.
 */
export function lingerOnClose(server: Server, lingerMs = LINGER_MS): void {
  server.on('connection', (socket: Socket & { destroySoon?: () => void }) => {
    if (typeof socket.destroySoon !== 'function') return;
    socket.destroySoon = () => lingeringClose(socket, lingerMs);
  });
}

export type RawAnswer = { contentType: string; body: string };

const answered = new WeakSet<Duplex>();

/** Writes a complete HTTP/1.1 answer on a socket Node's parser gave up on, then closes it. */
export function writeRawAnswer(socket: Duplex, status: number, answer: RawAnswer): void {
  // Node's parser reports an error again for every later chunk of the same request: the first
  // answer stands, and the lingering close it began must not turn into a reset.
  if (answered.has(socket)) return;
  answered.add(socket);
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const head = [
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'Error'}`,
    `Content-Type: ${answer.contentType}`,
    `Content-Length: ${Buffer.byteLength(answer.body)}`,
    'Connection: close',
  ];
  lingeringClose(socket, LINGER_MS, `${head.join('\r\n')}\r\n\r\n${answer.body}`);
}

/** HPE_HEADER_OVERFLOW is 431 (RFC 6585); every other parser failure is a plain 400. */
export function clientErrorStatus(error: { code?: string }): number {
  return error.code === 'HPE_HEADER_OVERFLOW' ? 431 : 400;
}

/** A Fastify `clientErrorHandler` answering in the listener's own format. */
export function clientErrorHandler(render: (status: number) => RawAnswer) {
  return (error: Error & { code?: string }, socket: Duplex): void => {
    const status = clientErrorStatus(error);
    writeRawAnswer(socket, status, render(status));
  };
}

/** Node drops CONNECT requests nobody listens for without a word: answer 405 instead. */
export function refuseConnect(server: Server, render: (status: number) => RawAnswer): void {
  server.on('connect', (_request, socket: Duplex) => writeRawAnswer(socket, 405, render(405)));
}

/** Everything above on one listener: CONNECT refused in the edge's format, and lingering closes. */
export function guardConnections(server: Server, render: (status: number) => RawAnswer): void {
  refuseConnect(server, render);
  lingerOnClose(server);
}
