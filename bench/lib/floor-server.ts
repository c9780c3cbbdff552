// The miss path's floor (issue 14: "one platform round trip plus parsing its bytes once"): a bare
// node:http process that, for request /<n>, sends the platform requests reelay sent for miss n
// (same URLs, signatures and headers, replayed through the same timing proxy, one after the other
// as reelay sent them), reads each answer and parses it with JSON.parse once, then writes reelay's
// answer bytes for that miss. No signing, checking, mapping, caching or serialising: what any
// server must spend to answer the same question. Reads its plan from the JSON file in argv[2];
// prints its URL on stdout when listening.
import { Agent, createServer, request } from 'node:http';
import { readFileSync } from 'node:fs';

export type FloorPlan = Array<{ answerFile: string; contentType: string; requests: Array<{ url: string; headers: Record<string, string> }> }>;

const plan = JSON.parse(readFileSync(process.argv[2] as string, 'utf8')) as FloorPlan;
const answers = plan.map((p) => readFileSync(p.answerFile));
const agent = new Agent({ keepAlive: true, maxSockets: 64 });

/** The answer's text, read whole: the time from sending to here is the platform's. */
function platformRequest(url: string, headers: Record<string, string>): Promise<string> {
  return new Promise((resolve, reject) => {
    const target = new URL(url);
    const req = request({ host: target.hostname, port: target.port, path: `${target.pathname}${target.search}`, headers, agent }, (res) => {
      res.setEncoding('utf8');
      let text = '';
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => {
        // A refused replay (the platform's empty 200 or an error) would make the floor look cheap.
        if (res.statusCode !== 200 || text.length === 0) {
          reject(new Error(`replay answered ${res.statusCode} with ${text.length} characters`));
          return;
        }
        resolve(text);
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

const server = createServer(async (req, res) => {
  const n = Number((req.url ?? '/').slice(1));
  const entry = plan[n];
  if (!entry) {
    res.writeHead(404).end();
    return;
  }
  const arrived = performance.now();
  try {
    let platformMs = 0;
    for (const r of entry.requests) {
      const sent = performance.now();
      const text = await platformRequest(r.url, r.headers);
      platformMs += performance.now() - sent;
      // Parsed once; a page route answers HTML, and reading it whole is its parse.
      if (r.url.includes('/api/')) JSON.parse(text);
    }
    // The same Server-Timing as reelay's, so the bench splits both overheads the same way.
    const timing = `app;dur=${(performance.now() - arrived).toFixed(1)}, platform;dur=${platformMs.toFixed(1)}`;
    res.writeHead(200, { 'content-type': entry.contentType, 'content-length': answers[n].length, 'server-timing': timing });
    res.end(answers[n]);
  } catch (error) {
    process.stderr.write(`floor: ${(error as Error).message}\n`);
    res.writeHead(502).end();
  }
});
server.listen(0, '127.0.0.1', () => {
  const address = server.address() as { port: number };
  process.stdout.write(`http://127.0.0.1:${address.port}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
