import { test } from 'node:test';
import assert from 'node:assert/strict';
import { connect, createServer, type Socket } from 'node:net';
import { once } from 'node:events';
import { PassThrough } from 'node:stream';
import { lingeringClose, writeRawAnswer } from './client-errors.ts';

const ANSWER = { contentType: 'application/json', body: '{"error":"x"}' };

test('a second parser error on the same connection keeps the first answer and does not reset it', () => {
  const socket = new PassThrough();
  const written: string[] = [];
  socket.on('data', (chunk: Buffer) => written.push(chunk.toString()));
  writeRawAnswer(socket, 400, ANSWER);
  writeRawAnswer(socket, 431, ANSWER);
  assert.equal(socket.destroyed, false);
  assert.equal(written.join('').match(/HTTP\/1\.1 /g)?.length, 1);
  assert.match(written.join(''), /^HTTP\/1\.1 400 Bad Request\r\n/);
});

test('after a lingering close the client can finish sending its body and sees a clean end, not a reset', async () => {
  const server = createServer({ allowHalfOpen: true }, (socket) => lingeringClose(socket, 30_000, 'ANSWER'));
  server.listen(0, '127.0.0.1').unref();
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  const client: Socket = connect(port, '127.0.0.1');
  const errors: Error[] = [];
  client.on('error', (error) => errors.push(error));
  let received = '';
  client.setEncoding('utf8');
  client.on('data', (text: string) => (received += text));
  // Wait for the whole answer, then keep sending as a client still uploading its body would.
  // Bounds only stop a broken build from hanging the suite; no assertion depends on them.
  const bound = AbortSignal.timeout(10_000);
  while (!received.includes('ANSWER')) await once(client, 'data', { signal: bound });
  for (let i = 0; i < 16; i++) client.write(Buffer.alloc(64 * 1024, 120));
  client.end();
  const [hadError] = await once(client, 'close', { signal: bound });
  server.close();
  assert.equal(received, 'ANSWER');
  assert.equal(hadError, false);
  assert.deepEqual(errors, []);
});
