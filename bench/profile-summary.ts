// Summarises a V8 .cpuprofile (from `npm run bench -- --cpu-prof`): self time by function and by
// package/folder, to say where the service's time goes. Usage: node bench/profile-summary.ts FILE [N]
import { readFileSync } from 'node:fs';

type Node = { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; hitCount?: number };
type Profile = { nodes: Node[]; samples: number[]; timeDeltas: number[] };

const [file, countText] = process.argv.slice(2);
if (!file) {
  process.stderr.write('usage: node bench/profile-summary.ts FILE.cpuprofile [N]\n');
  process.exit(2);
}
const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const selfUs = new Map<number, number>();
for (let i = 0; i < profile.samples.length; i++) selfUs.set(profile.samples[i], (selfUs.get(profile.samples[i]) ?? 0) + (profile.timeDeltas[i] ?? 0));
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

const byFunction = new Map<string, number>();
const byArea = new Map<string, number>();
for (const [id, us] of selfUs) {
  const frame = byId.get(id)?.callFrame;
  if (!frame) continue;
  const fn = `${frame.functionName || '(anonymous)'} ${frame.url.split('/').slice(-2).join('/')}:${frame.lineNumber + 1}`;
  byFunction.set(fn, (byFunction.get(fn) ?? 0) + us);
  const a = area(frame.url, frame.functionName);
  byArea.set(a, (byArea.get(a) ?? 0) + us);
}
const top = (map: Map<string, number>, n: number) =>
  [...map.entries()].sort((a, b) => b[1] - a[1]).slice(0, n).map(([k, us]) => `${((us / total) * 100).toFixed(1).padStart(5)}%  ${k}`);
const n = Number(countText ?? 15);
process.stdout.write(`total sampled ${(total / 1e6).toFixed(1)} s\n\nby area:\n${top(byArea, n).join('\n')}\n\nby function:\n${top(byFunction, n).join('\n')}\n`);
