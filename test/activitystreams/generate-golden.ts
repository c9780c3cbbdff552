// Regenerates test/fixtures/golden/*.json from the samples. Run by hand after a deliberate mapping
// change, then read the diff: `npx node test/activitystreams/generate-golden.ts`.
import { writeFileSync } from 'node:fs';
import { GOLDEN_CASES, GOLDEN_DIR } from './golden-cases.ts';

for (const golden of GOLDEN_CASES) {
  const file = new URL(`${golden.name}.json`, GOLDEN_DIR);
  writeFileSync(file, `${JSON.stringify(golden.build(), null, 2)}\n`);
  console.log(`wrote ${file.pathname}`);
}
