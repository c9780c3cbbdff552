// A TCP relay in front of a shared server (Redis, PostgreSQL) that a test can cut and restore, to
// stage an outage without touching the server: cut resets every open connection and every new one.
import { createConnection, createServer, type Server, type Socket } from 'node:net';

export type TcpRelay = {
  /** The relay's loopback port: point the client's URL at it. */
  port: number;
  /** Resets open connections and, until `restore`, every new one (the client sees a dead server). */
  cut(): void;
  restore(): void;
  isCut(): boolean;
  /** Connections accepted while cut (each reset at once). */
  refused(): number;
  close(): Promise<void>;
};

export async function startTcpRelay(target: { host?: string; port: number }): Promise<TcpRelay> {
  const host = target.host ?? '127.0.0.1';
  const open = new Set<Socket>();
  let cut = false;
  let refused = 0;

  const server: Server = createServer((client) => {
    if (cut) {
      refused += 1;
      client.resetAndDestroy();
      return;
    }
    const upstream = createConnection({ host, port: target.port });
    for (const socket of [client, upstream]) {
      open.add(socket);
      socket.on('close', () => open.delete(socket));
      // A reset is how the relay ends things; its errors are expected, not failures of the test.
      socket.on('error', () => {});
    }
    client.pipe(upstream);
    upstream.pipe(client);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };

  function resetAll(): void {
    for (const socket of open) {
      if (!socket.destroyed) socket.resetAndDestroy();
    }
    open.clear();
  }

  return {
    port,
    cut() {
      cut = true;
      resetAll();
    },
    restore() {
      cut = false;
    },
    isCut: () => cut,
    refused: () => refused,
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
