// Child process running autocannon, so the load generator never shares a process with the server
// under test. Reads a LoadSpec as JSON from argv[2]; prints the summary as one JSON line on stdout.
import { readFileSync } from 'node:fs';
import autocannon from 'autocannon';
import type { LoadSpec, LoadSummary } from './load.ts';

const spec = JSON.parse(process.argv[2] ?? '{}') as LoadSpec;
// Many distinct paths come through a file: argv has a size limit.
const paths: string[] = spec.pathsFile ? (JSON.parse(readFileSync(spec.pathsFile, 'utf8')) as string[]) : [];
let next = 0;

const result = await autocannon({
  url: spec.url,
  connections: spec.connections,
  // autocannon rejects an explicit undefined: give either the amount or the duration.
  ...(spec.amount ? { amount: spec.amount } : { duration: spec.durationSeconds ?? 10 }),
  method: spec.method ?? 'GET',
  headers: spec.headers,
  body: spec.body,
  timeout: 30,
  requests: paths.length
    ? [{ setupRequest: (req) => ({ ...req, path: paths[next++ % paths.length] }) }]
    : undefined,
});

const summary: LoadSummary = {
  requestsPerSecond: result.requests.average,
  requestsTotal: result.requests.total,
  latencyP50Ms: result.latency.p50,
  latencyP99Ms: result.latency.p99,
  latencyMeanMs: result.latency.average,
  errors: result.errors,
  timeouts: result.timeouts,
  non2xx: result.non2xx,
  durationSeconds: result.duration,
  statusCodes: Object.fromEntries(Object.entries(result.statusCodeStats ?? {}).map(([code, s]) => [code, s.count])),
};
process.stdout.write(`${JSON.stringify(summary)}\n`);
