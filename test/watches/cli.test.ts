// `reelay watch` drives a running service over REST: add prints the id (and the secret on stderr),
// list shows it, history prints rows, CSV or a plot or writes the SVG chart, rm deletes it; mistakes
// exit 2 with usage.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import { Writable } from 'node:stream';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../../src/cli/index.ts';
import { startStack, type Stack } from '../helpers/stack.ts';
import { allElements, parseXml } from '../helpers/xml.ts';

const settled = new EventEmitter();
let stack: Stack;
let url: string;

before(async () => {
  stack = await startStack({ config: { watchMinInterval: '1s', webhookAllowPrivate: '1' }, services: { watchEvents: (e) => settled.emit(e.kind, e.id) } });
  url = await stack.app.rest.listen({ port: 0, host: '127.0.0.1' });
});
after(() => stack.close());

async function cli(...argv: string[]): Promise<{ code: number | undefined; out: string; err: string }> {
  let out = '';
  let err = '';
  const sink = (append: (s: string) => void) => new Writable({ write(chunk, _enc, done) { append(String(chunk)); done(); } });
  const code = await runCli(['watch', ...argv], { REELAY_URL: url, REELAY_API_KEY: stack.key }, { stdout: sink((s) => (out += s)), stderr: sink((s) => (err += s)) });
  return { code, out, err };
}

test('watch add, list, history (table, CSV, plot, SVG file) and rm work against a running service', async () => {
  const firstRun = new Promise<void>((resolve) => settled.once('run', () => resolve()));
  const added = await cli('add', 'video', stack.emulator.manifest.videos.pinned, '--every', '1s', '--webhook', 'http://127.0.0.1:9/hook');
  assert.equal(added.code, 0, added.err);
  const id = added.out.trim();
  assert.match(id, /^wch_/);
  assert.match(added.err, /whsec_/);
  await firstRun;

  const list = await cli('list');
  assert.match(list.out, new RegExp(`${id}\\s+video\\s+${stack.emulator.manifest.videos.pinned}\\s+1s\\s+active`));
  const rows = await cli('history', id);
  assert.match(rows.out, /^AT\s+VIEWCOUNT\s+LIKECOUNT\s+COMMENTCOUNT\s+SHARECOUNT\s+SAVECOUNT\n\d{4}-/);
  const csv = await cli('history', id, '--csv');
  assert.match(csv.out, /^at,commentCount,likeCount,saveCount,shareCount,viewCount\r\n\d{4}-/);
  const plot = await cli('history', id, '--plot');
  assert.match(plot.out, /viewCount\s+[▁▂▃▄▅▆▇█]+\s+\d+ → \d+/);
  const dir = await mkdtemp(join(tmpdir(), 'reelay-watch-chart-'));
  try {
    const file = join(dir, 'chart.svg');
    const svg = await cli('history', id, '--svg', file);
    assert.equal(svg.code, 0, svg.err);
    assert.equal(svg.out, '');
    assert.match(svg.err, /^wrote .*chart\.svg \(\d+ bytes\)\n$/);
    const chart = parseXml(await readFile(file, 'utf8'));
    assert.equal(chart.name, 'svg');
    const panels = allElements(chart).filter((e) => e.name === 'g' && e.attributes.class === 'panel').map((e) => e.attributes['data-metric']);
    assert.deepEqual(panels, ['commentCount', 'likeCount', 'saveCount', 'shareCount', 'viewCount']);
    const both = await cli('history', id, '--svg', file, '--csv');
    assert.equal(both.code, 2);
    assert.match(both.err, /one of --csv, --plot and --svg/);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }

  assert.equal((await cli('rm', id)).code, 0);
  const gone = await cli('rm', id);
  assert.equal(gone.code, 1);
  assert.match(gone.err, /404 not_found/);
});

test('mistakes exit 2 with the usage', async () => {
  const bad = await cli('add', 'video');
  assert.equal(bad.code, 2);
  assert.match(bad.err, /Usage:/);
  assert.equal((await cli('--help')).code, 0);
});
