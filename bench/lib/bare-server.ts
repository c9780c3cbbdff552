// The baseline: a bare node:http server answering every request with the same bytes and headers
// reelay sends for a cached page (or, with a content type as second argument, an MCP answer).
// Runs as its own process; prints its URL on stdout when listening.
import { createServer } from 'node:http';
import { readFileSync } from 'node:fs';

const body = readFileSync(process.argv[2] as string);
const contentType = process.argv[3] ?? 'application/json; charset=utf-8';
const server = createServer((req, res) => {
  // A POST (an MCP call) is read to its end first, as a real server does.
  req.resume();
  res.writeHead(200, { 'content-type': contentType, 'content-length': body.length });
  res.end(body);
});
server.listen(0, '127.0.0.1', () => {
  const address = server.address() as { port: number };
  process.stdout.write(`http://127.0.0.1:${address.port}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
