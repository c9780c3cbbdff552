// The service's Node flags appear wherever reelay is launched: npm scripts and the installed command.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { SERVICE_NODE_FLAGS } from './node-flags.ts';

const root = new URL('../', import.meta.url);

test('npm start, demo and reelay scripts and bin/reelay.js pass the service flags to node', () => {
  const scripts = JSON.parse(readFileSync(new URL('package.json', root), 'utf8')).scripts as Record<string, string>;
  for (const name of ['start', 'demo', 'reelay']) {
    assert.ok(scripts[name].startsWith(`node ${SERVICE_NODE_FLAGS.join(' ')} src/main.ts`), `${name}: ${scripts[name]}`);
  }
  const shebang = readFileSync(new URL('bin/reelay.js', root), 'utf8').split('\n')[0];
  assert.equal(shebang, `#!/usr/bin/env -S node ${SERVICE_NODE_FLAGS.join(' ')}`);
});
