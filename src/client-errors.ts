// Answers for requests that never reach a route: bytes that are not HTTP, oversized headers and
// CONNECT. Both listeners use it so even these get their edge's error format, never a bare reset.
import { STATUS_CODES, type Server } from 'node:http';
import type { Duplex } from 'node:stream';

export type RawAnswer = { contentType: string; body: string };

/** Writes a complete HTTP/1.1 answer on a socket Node's parser gave up on, then closes it. */
export function writeRawAnswer(socket: Duplex, status: number, answer: RawAnswer): void {
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
  socket.end(`${head.join('\r\n')}\r\n\r\n${answer.body}`);
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
