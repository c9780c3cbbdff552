// A TCP relay in front of a shared server (Redis, PostgreSQL) that a test can cut, stall and
// restore, to stage an outage without touching the server: cut resets every open and new
// connection (a dead server); stall keeps them open but forwards nothing (a hung server or network).
import { createConnection, createServer, type Server, type Socket } from 'node:net';

export type TcpRelay = {
  /** The relay's loopback port: point the client's URL at it. */
  port: number;
  /** Resets open connections and, until `restore`, every new one. */
  cut(): void;
  /** Until `restore`, forwards nothing either way on open connections, and holds new ones unanswered. */
  stall(): void;
  /** Forwards again; connections opened or stalled during the outage are reset first. */
  restore(): void;
  close(): Promise<void>;
};

type Mode = 'open' | 'cut' | 'stalled';

export async function startTcpRelay(target: { host?: string; port: number }): Promise<TcpRelay> {
  const host = target.host ?? '127.0.0.1';
  const sockets = new Set<Socket>();
  let mode: Mode = 'open';

  const track = (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    // A reset is how the relay ends things; its errors are expected, not failures of the test.
    socket.on('error', () => {});
  };

  const server: Server = createServer((client) => {
    if (mode === 'cut') return void client.resetAndDestroy();
    track(client);
    if (mode === 'stalled') return void client.pause();
    const upstream = createConnection({ host, port: target.port });
    track(upstream);
    client.pipe(upstream);
    upstream.pipe(client);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };

  function resetAll(): void {
    for (const socket of sockets) if (!socket.destroyed) socket.resetAndDestroy();
    sockets.clear();
  }

  return {
    port,
    cut() {
      mode = 'cut';
      resetAll();
    },
    stall() {
      mode = 'stalled';
      for (const socket of sockets) {
        socket.unpipe();
        socket.pause();
      }
    },
    restore() {
      if (mode === 'stalled') resetAll();
      mode = 'open';
    },
    async close() {
      resetAll();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** `url` with its host and port replaced by the relay's (the rest, credentials included, kept). */
export function viaRelay(url: string, relay: Pick<TcpRelay, 'port'>): string {
  const parsed = new URL(url);
  parsed.hostname = '127.0.0.1';
  parsed.port = String(relay.port);
  return parsed.toString();
}
