// Prints the byte size of each projection preset on the golden outputs, as the table in
// docs/projection.md: `npx node test/activitystreams/measure-projection.ts`.
import { readFileSync } from 'node:fs';
import { project, type Preset } from '../../src/activitystreams/index.ts';
import { GOLDEN_DIR } from './golden-cases.ts';

const golden = (name: string) => JSON.parse(readFileSync(new URL(`${name}.json`, GOLDEN_DIR), 'utf8'));
const rows: Array<[string, unknown]> = [
  ['Person (user-detail)', golden('user-detail')],
  ['Video (video-detail, 2023, 1 rendition)', golden('video-detail')],
  ['Video (one item of user-videos, 5 renditions)', golden('user-videos').orderedItems[0]],
  ['Note (one comment)', golden('video-comments').orderedItems[1]],
  ['Page of 1 Video (user-videos)', golden('user-videos')],
  ['Page of 11 Video, tag dialect (search sample)', golden('tag-videos-from-search')],
  ['Page of 2 Person (followers)', golden('user-followers')],
  ['Page of 19 Note (comments)', golden('video-comments')],
];
const size = (v: unknown) => Buffer.byteLength(JSON.stringify(v));
console.log('| Resource | full | standard | minimal |');
console.log('|---|---:|---:|---:|');
for (const [label, data] of rows) {
  const cells = (['full', 'standard', 'minimal'] as Preset[]).map((p) => {
    const bytes = size(project(data, p));
    return p === 'full' ? `${bytes}` : `${bytes} (${Math.round((100 * bytes) / size(data))}%)`;
  });
  console.log(`| ${label} | ${cells.join(' | ')} |`);
}
