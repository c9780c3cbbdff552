// A local webhook receiver for tests: records every request and answers as the test scripts it
// (at once, or later to keep a delivery in flight), and lets a test wait (bounded) for a request
// matching a predicate.
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { EventEmitter } from 'node:events';

export type Received = { headers: IncomingHttpHeaders; body: string; json: any; status: number };

export type Receiver = {
  url: string;
  /** Requests answered (the connection may have gone meanwhile), in the order answered. */
  requests: Received[];
  /** Requests as they arrive, before they are answered. */
  arrived: Omit<Received, 'status'>[];
  /** Status to answer the next request with, or a promise of it to hold the request open; default 204. */
  answer: (request: Omit<Received, 'status'>) => number | Promise<number>;
  /** Requests arrived, not yet answered, whose sender still holds the connection. */
  open(): number;
  waitFor(predicate: (r: Received) => boolean, what: string, timeoutMs?: number): Promise<Received>;
  close(): Promise<void>;
};

export async function startReceiver(): Promise<Receiver> {
  const events = new EventEmitter();
  const receiver: Receiver = {
    url: '',
    requests: [],
    arrived: [],
    answer: () => 204,
    open: () => open.size,
    async waitFor(predicate, what, timeoutMs = 15_000) {
      const found = receiver.requests.find(predicate);
      if (found) return found;
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          events.off('request', check);
          reject(new Error(`no webhook ${what} within ${timeoutMs} ms (got: ${receiver.requests.map((r) => `${r.json?.type}:${r.status}`).join(', ') || 'nothing'})`));
        }, timeoutMs);
        function check(r: Received) {
          if (!predicate(r)) return;
          clearTimeout(timer);
          events.off('request', check);
          resolve(r);
        }
        events.on('request', check);
      });
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
  const open = new Set<object>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const body = Buffer.concat(chunks).toString('utf8');
      let json: unknown;
      try {
        json = JSON.parse(body);
      } catch {
        json = undefined;
      }
      const seen = { headers: req.headers, body, json };
      receiver.arrived.push(seen);
      open.add(seen);
      res.once('close', () => open.delete(seen));
      const status = await receiver.answer(seen);
      open.delete(seen);
      const record = { ...seen, status };
      receiver.requests.push(record);
      if (!res.destroyed) res.writeHead(status).end();
      events.emit('request', record);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  return receiver;
}
