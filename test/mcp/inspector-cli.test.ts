// The MCP Inspector CLI (a real third-party client) lists and calls tools with an API key over
// Streamable HTTP, and fails without one.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { startHarness, type Harness } from './harness.ts';

const CLI = fileURLToPath(new URL('../../node_modules/@modelcontextprotocol/inspector-cli/build/index.js', import.meta.url));
// The CLI reads ../package.json relative to its working directory; test/ has the repository's above it.
const CWD = fileURLToPath(new URL('../', import.meta.url));
const RUN_TIMEOUT_MS = 60_000;

let h: Harness;
before(async () => {
  h = await startHarness();
});
after(async () => h.close());

function inspector(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, `${h.url}/`, '--transport', 'http', ...args], { cwd: CWD });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), RUN_TIMEOUT_MS);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

test('the Inspector CLI lists every tool with a key', { timeout: RUN_TIMEOUT_MS }, async () => {
  const { code, stdout, stderr } = await inspector(['--header', `Authorization: Bearer ${h.key}`, '--method', 'tools/list']);
  assert.equal(code, 0, stderr);
  const names = (JSON.parse(stdout).tools as Array<{ name: string }>).map((t) => t.name);
  assert.equal(names.length, 12);
  assert.ok(names.includes('platform_get_user'));
});

test('the Inspector CLI calls a tool with a key and gets structuredContent', { timeout: RUN_TIMEOUT_MS }, async () => {
  const { code, stdout, stderr } = await inspector([
    '--header', `Authorization: Bearer ${h.key}`, '--method', 'tools/call',
    '--tool-name', 'platform_get_user', '--tool-arg', 'username=someone', '--tool-arg', 'projection_preset=minimal',
  ]);
  assert.equal(code, 0, stderr);
  const result = JSON.parse(stdout);
  assert.equal(result.structuredContent.type, 'Person');
  assert.equal(result.isError, undefined);
});

test('the Inspector CLI fails without a key', { timeout: RUN_TIMEOUT_MS }, async () => {
  const { code, stdout } = await inspector(['--method', 'tools/list']);
  assert.notEqual(code, 0);
  assert.ok(!stdout.includes('platform_get_user'));
});
