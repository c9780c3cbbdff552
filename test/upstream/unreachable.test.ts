// A platform that cannot be reached at all (nothing listens, name lookup fails) is its own problem,
// platform_unreachable, logged once per episode at error level with a short cause, and the return
// of the platform is logged once too. A connection reset after the request stays upstream_error.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, connect, type Server, type Socket } from 'node:net';
import { once } from 'node:events';
import type { AppError } from '../../src/errors.ts';
import { connectFailure } from '../../src/upstream/request.ts';
import { freePort } from '../helpers/ports.ts';
import { clientFor, startEmulator, type Emulator } from './emulator-harness.ts';

let emulator: Emulator;
before(async () => {
  emulator = await startEmulator();
});
after(() => emulator?.close());

/** Forwards a loopback port to the emulator once opened; until then nothing listens there. */
async function relayTo(target: URL, port: number): Promise<{ server: Server; sockets: Set<Socket> }> {
  const sockets = new Set<Socket>();
  const server = createServer((inbound) => {
    const outbound = connect(Number(target.port), target.hostname);
    for (const s of [inbound, outbound]) {
      sockets.add(s);
      s.on('error', () => s.destroy());
      s.on('close', () => sockets.delete(s));
    }
    inbound.pipe(outbound).pipe(inbound);
  });
  server.listen(port, '127.0.0.1');
  await once(server, 'listening');
  return { server, sockets };
}

test('nothing listening: platform_unreachable, one error log per episode, one log when it answers again', async () => {
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const logs: Array<{ level: string; obj: object; msg: string }> = [];
  const logger = {
    warn: (obj: object, msg: string) => logs.push({ level: 'warn', obj, msg }),
    error: (obj: object, msg: string) => logs.push({ level: 'error', obj, msg }),
  };
  const { client } = clientFor({ ...emulator, url: origin }, { maxAttempts: 2, requestTimeoutMs: 10_000 }, { logger });
  const username = emulator.manifest.users.public;
  for (let i = 0; i < 3; i++) {
    await assert.rejects(client.getUser(username), (e: AppError) => {
      assert.equal(e.code, 'platform_unreachable');
      assert.equal(e.status, 502);
      assert.match(e.message, /egress or REELAY_PROXIES/);
      return true;
    });
  }
  const errors = logs.filter((l) => l.level === 'error');
  assert.equal(errors.length, 1, 'one error log for the whole episode');
  assert.equal(errors[0].msg, 'cannot reach the platform: check egress or REELAY_PROXIES');
  assert.deepEqual(errors[0].obj, { cause: 'refused' });

  const relay = await relayTo(new URL(emulator.url), port);
  try {
    const user = await client.getUser(username);
    assert.equal(user.data.user.uniqueId, username);
    assert.equal(logs.filter((l) => l.msg === 'the platform is reachable again').length, 1);
  } finally {
    await client.close();
    for (const s of relay.sockets) s.destroy();
    relay.server.close();
  }
});

test('connect failures are told apart by a short cause that never carries the message', () => {
  const named = (message: string) => Object.assign(new Error(message), { name: 'ConnectError' });
  assert.equal(connectFailure(named('Failed to connect to the server.\nReason: ConnectError("dns error", …)')), 'dns');
  assert.equal(connectFailure(named('ConnectError("tcp connect error", 127.0.0.1:1, Os { code: 111 })')), 'refused');
  assert.equal(connectFailure(named('Custom { kind: UnexpectedEof, error: "tls handshake eof" }')), 'tls');
  assert.equal(connectFailure(named('proxy http://user:secret@10.0.0.1:8080 failed')), 'connect');
  assert.equal(connectFailure(Object.assign(new Error('Remote protocol error occurred.'), { name: 'RemoteProtocolError' })), undefined);
  assert.equal(connectFailure('not an error'), undefined);
});
