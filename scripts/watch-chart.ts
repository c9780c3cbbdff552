// `npm run docs:watch-chart`: the chart in docs/watches.md, made for real. Starts the platform
// emulator and reelay in-process, watches a video every second, moves its counts through the
// emulator's control endpoint over RUNS runs, and writes the history as SVG to docs/watch-chart.svg.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { EventEmitter } from 'node:events';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startEmulator } from '../emulator/server.ts';
import { parseConfig } from '../src/config/config.ts';
import { createApp, createLogger, createServices } from '../src/app.ts';

const RUNS = 20;
/** The whole script's bound; a run is due every second, so this is three times what it needs. */
const DEADLINE_MS = 60_000;
const RUN_WAIT_MS = 10_000;
const OUTPUT = fileURLToPath(new URL('../docs/watch-chart.svg', import.meta.url));

const log = (line: string) => process.stderr.write(`watch-chart: ${line}\n`);
const deadline = setTimeout(() => {
  log(`not done within ${DEADLINE_MS / 1000} s; giving up`);
  process.exit(1);
}, DEADLINE_MS);

/** Counts that grow the way a video's do: views fast then slower, the rest along. */
function countsAt(run: number) {
  return {
    playCount: 12_000 + Math.round(40_000 * (1 - Math.exp(-run / 7))),
    diggCount: 900 + Math.round(2_400 * (1 - Math.exp(-run / 9))),
    commentCount: 35 + Math.floor(run * 1.6),
    shareCount: 20 + 3 * Math.floor(run / 4),
    collectCount: 80 + run * 6,
  };
}

const runs = new EventEmitter();
const emulator = await startEmulator({ seed: 1, host: '127.0.0.1' });
const dataDir = await mkdtemp(join(tmpdir(), 'reelay-watch-chart-'));
const config = parseConfig({
  browser: 'off',
  dataDir,
  webOrigin: emulator.url,
  webcastOrigin: emulator.url,
  identityRatePerSecond: '1000',
  watchMinInterval: '1s',
  logLevel: 'warn',
});
const services = await createServices(config, {
  logger: createLogger(config, { write: (line: string) => void process.stderr.write(line) }),
  watchEvents: (event) => event.kind === 'run' && runs.emit('run', event.id),
});
const app = createApp(services);

try {
  const base = await app.rest.listen({ port: 0, host: '127.0.0.1' });
  const { key } = await services.keys.create({ name: 'watch-chart' });
  const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
  const videoId = emulator.manifest.videos.withReplies.id as string;

  const moveCounts = async (run: number) => {
    const response = await fetch(`${emulator.url}/__emulator/videos/${videoId}`, { method: 'PATCH', body: JSON.stringify(countsAt(run)) });
    if (!response.ok) throw new Error(`the emulator refused the counts: ${response.status}`);
  };
  await moveCounts(0);
  const created = await fetch(`${base}/v1/watches`, { method: 'POST', headers, body: JSON.stringify({ kind: 'video', target: videoId, every: '1s' }) });
  if (created.status !== 201) throw new Error(`creating the watch: ${created.status} ${await created.text()}`);
  const { data: watch } = (await created.json()) as { data: { id: string } };
  log(`watching video ${videoId} as ${watch.id}, ${RUNS} runs`);

  const nextRun = () =>
    new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no run of ${watch.id} within ${RUN_WAIT_MS} ms`)), RUN_WAIT_MS);
      const onRun = (id: string) => {
        if (id !== watch.id) return;
        clearTimeout(timer);
        runs.off('run', onRun);
        resolve();
      };
      runs.on('run', onRun);
    });
  for (let run = 1; run <= RUNS; run++) {
    await nextRun();
    if (run < RUNS) await moveCounts(run);
  }

  const chart = await fetch(`${base}/v1/watches/${watch.id}/history?format=svg`, { headers: { authorization: `Bearer ${key}` } });
  if (!chart.ok) throw new Error(`the chart: ${chart.status} ${await chart.text()}`);
  const svg = await chart.text();
  await writeFile(OUTPUT, svg);
  log(`wrote ${OUTPUT} (${Buffer.byteLength(svg)} bytes)`);
} finally {
  clearTimeout(deadline);
  await app.close();
  await emulator.close();
  await rm(dataDir, { recursive: true, force: true });
}
