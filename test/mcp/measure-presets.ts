// Prints the size in bytes of each projection preset per tool, measured on the golden fixtures the
// tool would answer with: `npx node test/mcp/measure-presets.ts` (the table in docs/mcp.md).
import { readFileSync } from 'node:fs';
import { project } from '../../src/activitystreams/index.ts';
import { GOLDEN_BY_TOOL } from './harness.ts';

const size = (value: unknown) => Buffer.byteLength(JSON.stringify(value));
console.log('| Tool | fixture | full | standard | minimal |');
console.log('|---|---|---:|---:|---:|');
// Collections answer playlists, for which there is no golden yet; the fake serves a video page there.
for (const [tool, name] of Object.entries(GOLDEN_BY_TOOL)) {
  const data = JSON.parse(readFileSync(new URL(`../fixtures/golden/${name}.json`, import.meta.url), 'utf8'));
  const full = size(data);
  const pct = (bytes: number) => `${bytes} (${Math.round((100 * bytes) / full)}%)`;
  console.log(`| \`${tool}\` | ${name} | ${full} | ${pct(size(project(data, 'standard')))} | ${pct(size(project(data, 'minimal')))} |`);
}
