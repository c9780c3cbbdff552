// The real entry point starts, prints where it listens and its first key, serves, and stops cleanly on SIGTERM.
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { once } from 'node:events';
import { checkedFetch } from './helpers/contract.ts';

it('main.ts serve listens, answers /healthz and exits 0 on SIGTERM', async () => {
  const dataDir = await mkdtemp(join(tmpdir(), 'reelay-smoke-'));
  const child = spawn(process.execPath, ['src/main.ts', 'serve', '--port', '0', '--mcp-port', '0', '--data-dir', dataDir], {
    env: { ...process.env, REELAY_LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.setEncoding('utf8');
  const listening = new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no listening line: ${stderr}`)), 90_000);
    child.stderr.on('data', (chunk: string) => {
      stderr += chunk;
      const match = /REST API listening on (http:\/\/\S+)/.exec(stderr);
      if (match && /rly_[A-Za-z0-9_-]{43}/.test(stderr)) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
  });
  try {
    const url = await listening;
    const health = await fetch(`${url}/healthz`);
    assert.equal(health.status, 200);
    const key = /rly_[A-Za-z0-9_-]{43}/.exec(stderr)?.[0];
    const unauthorized = await checkedFetch(`${url}/v1/platform/users/someone`);
    assert.equal(unauthorized.status, 401);
    assert.ok(key);
    child.kill('SIGTERM');
    const [code] = await once(child, 'exit');
    assert.equal(code, 0);
  } finally {
    if (child.exitCode === null) child.kill('SIGKILL');
    await rm(dataDir, { recursive: true, force: true });
  }
});
