// The CLI's modules form no import cycle through the dispatcher: only main.ts and tests import
// src/cli/index.ts; commands take their Io/Env types from io.ts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdir, readFile } from 'node:fs/promises';

const CLI = new URL('../../src/cli/', import.meta.url);

test('no command module imports the dispatcher (src/cli/index.ts)', async () => {
  const files = (await readdir(CLI)).filter((f) => f.endsWith('.ts') && f !== 'index.ts' && !f.endsWith('.test.ts'));
  assert.ok(files.includes('export.ts') && files.includes('get.ts'));
  for (const file of files) {
    const text = await readFile(new URL(file, CLI), 'utf8');
    assert.doesNotMatch(text, /from '\.\/index\.ts'/, `${file} imports ./index.ts`);
  }
});
