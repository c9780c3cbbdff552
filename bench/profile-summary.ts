// Summarises a V8 .cpuprofile (from `npm run bench -- --cpu-prof`): self time by function and by
// package/folder, and time including callees for the service's own functions, to say where the
// service's time goes. Usage: node bench/profile-summary.ts FILE [N] [--from S] [--to S], where
// --from/--to keep the samples between S seconds after the profile's start (one scenario's phase).
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';

type Node = { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; hitCount?: number; children?: number[] };
type Profile = { nodes: Node[]; samples: number[]; timeDeltas: number[] };

const { values: window, positionals } = parseArgs({ options: { from: { type: 'string' }, to: { type: 'string' } }, allowPositionals: true });
const [file, countText] = positionals;
if (!file) {
  process.stderr.write('usage: node bench/profile-summary.ts FILE.cpuprofile [N] [--from S] [--to S]\n');
  process.exit(2);
}
const fromUs = Number(window.from ?? 0) * 1e6;
const toUs = window.to === undefined ? Number.POSITIVE_INFINITY : Number(window.to) * 1e6;
const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const parentOf = new Map<number, number>();
for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node.id);
const selfUs = new Map<number, number>();
let atUs = 0;
for (let i = 0; i < profile.samples.length; i++) {
  atUs += profile.timeDeltas[i] ?? 0;
  if (atUs < fromUs || atUs > toUs) continue;
  selfUs.set(profile.samples[i], (selfUs.get(profile.samples[i]) ?? 0) + (profile.timeDeltas[i] ?? 0));
}
const total = [...selfUs.values()].reduce((a, b) => a + b, 0);

/** `node_modules/<pkg>`, `src/<folder>`, `node:<module>` or the V8 pseudo-frames. */
function area(url: string, name: string): string {
  if (!url) return `(${name || 'native'})`;
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return pkg[1];
  const own = /\/work\/[^/]+\/(?:[^/]+\/)?(src|emulator|bench)\/([^/]+)/.exec(url) ?? /\/(src)\/([^/]+)/.exec(url);
  if (own) return `${own[1]}/${own[2].replace(/\.ts$/, '')}`;
  return url.startsWith('node:') ? url : url.split('/').slice(-2).join('/');
}

const label = (frame: Node['callFrame']) => `${frame.functionName || '(anonymous)'} ${frame.url.split('/').slice(-2).join('/')}:${frame.lineNumber + 1}`;
const byFunction = new Map<string, number>();
const byArea = new Map<string, number>();
// Time with callees, for functions of the service itself (each function counted once per stack).
const inclusive = new Map<string, number>();
for (const [id, us] of selfUs) {
  const frame = byId.get(id)?.callFrame;
  if (!frame) continue;
  const fn = label(frame);
  byFunction.set(fn, (byFunction.get(fn) ?? 0) + us);
  const a = area(frame.url, frame.functionName);
  byArea.set(a, (byArea.get(a) ?? 0) + us);
  const seen = new Set<string>();
  for (let at: number | undefined = id; at !== undefined; at = parentOf.get(at)) {
    const f = byId.get(at)?.callFrame;
    if (!f || !/\/src\//.test(f.url) || f.url.includes('node_modules')) continue;
    const name = label(f);
    if (seen.has(name)) continue;
    seen.add(name);
    inclusive.set(name, (inclusive.get(name) ?? 0) + us);
  }
}
const top = (map: Map<string, number>, n: number) =>
  [...map.entries()].sort((a, b) => b[1] - a[1]).slice(0, n).map(([k, us]) => `${((us / total) * 100).toFixed(1).padStart(5)}%  ${k}`);
const n = Number(countText ?? 15);
process.stdout.write(
  `total sampled ${(total / 1e6).toFixed(1)} s\n\nby area:\n${top(byArea, n).join('\n')}\n\nby function:\n${top(byFunction, n).join('\n')}\n\n` +
    `service functions, with callees:\n${top(inclusive, n).join('\n')}\n`,
);
