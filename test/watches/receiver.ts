// A local webhook receiver for tests: records every request and answers as the test scripts it,
// and lets a test wait (bounded) for a request matching a predicate.
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { EventEmitter } from 'node:events';

export type Received = { headers: IncomingHttpHeaders; body: string; json: any; status: number };

export type Receiver = {
  url: string;
  requests: Received[];
  /** Status to answer the next request with; default 204. */
  answer: (request: Omit<Received, 'status'>) => number;
  waitFor(predicate: (r: Received) => boolean, what: string, timeoutMs?: number): Promise<Received>;
  close(): Promise<void>;
};

export async function startReceiver(): Promise<Receiver> {
  const events = new EventEmitter();
  const receiver: Receiver = {
    url: '',
    requests: [],
    answer: () => 204,
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
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      let json: unknown;
      try {
        json = JSON.parse(body);
      } catch {
        json = undefined;
      }
      const seen = { headers: req.headers, body, json };
      const status = receiver.answer(seen);
      const record = { ...seen, status };
      receiver.requests.push(record);
      res.writeHead(status).end();
      events.emit('request', record);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  return receiver;
}
