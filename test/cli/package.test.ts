// The installable package: `npm pack` (which builds dist/ at prepack), `npm install <tarball>` in an
// empty folder, then `npx reelay --version` and `reelay demo` (start, readiness line, one request,
// stop). Slow-ish (a tsc build and an install from the local npm cache) but bounded.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, execFile } from 'node:child_process';
import { once } from 'node:events';
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const ROOT = new URL('../../', import.meta.url).pathname;

/** The environment of the npm commands: Node 24 first on PATH, nothing inherited from the outer `npm test`. */
function cleanEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(process.env)) if (value !== undefined && !name.toLowerCase().startsWith('npm_')) env[name] = value;
  env.PATH = `${dirname(process.execPath)}:${process.env.PATH ?? ''}`;
  return env;
}

test('npm pack, npm install <tarball> in an empty folder, then npx reelay --version and reelay demo work', { timeout: 900_000 }, async () => {
  const dir = await mkdtemp(join(tmpdir(), 'reelay-package-'));
  const env = cleanEnv();
  try {
    const packed = await run('npm', ['pack', '--silent', '--pack-destination', dir], { cwd: ROOT, env, timeout: 400_000, maxBuffer: 16 << 20 });
    const tarball = join(dir, packed.stdout.trim().split('\n').pop() as string);
    const listing = (await run('tar', ['tzf', tarball], { env })).stdout.split('\n');
    for (const file of ['package/bin/reelay.js', 'package/dist/src/main.js', 'package/dist/emulator/server.js', 'package/dist/emulator/dataset/dataset.js', 'package/dist/src/upstream/signing/x-bogus.js']) {
      assert.ok(listing.includes(file), `${file} is in the package`);
    }
    assert.ok(!listing.some((f) => /\.test\.js$|^package\/(src|test|bench)\//.test(f)), 'no tests and no TypeScript sources are shipped');

    const app = join(dir, 'app');
    await mkdir(app);
    await run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error', tarball], { cwd: app, env, timeout: 400_000, maxBuffer: 16 << 20 });
    const pkg = JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8')) as { version: string };
    const version = await run('npx', ['reelay', '--version'], { cwd: app, env, timeout: 60_000 });
    assert.equal(version.stdout, `${pkg.version}\n`);

    const demo = spawn(join(app, 'node_modules/.bin/reelay'), ['demo', '--port', '0', '--mcp-port', '0', '--emulator-port', '0', '--data-dir', join(app, 'data')], {
      cwd: app,
      env: { ...env, REELAY_BROWSER: 'off', REELAY_LOG_LEVEL: 'warn' },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    let out = '';
    let err = '';
    demo.stderr.on('data', (chunk: Buffer) => (err += chunk.toString('utf8')));
    const exited = once(demo, 'exit');
    try {
      const ready = await new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no readiness line from reelay demo:\n${out}\n${err}`)), 120_000);
        demo.stdout.on('data', (chunk: Buffer) => {
          out += chunk.toString('utf8');
          if (out.includes('Press Ctrl-C to stop.')) {
            clearTimeout(timer);
            resolve(out);
          }
        });
        demo.once('exit', (code) => reject(new Error(`reelay demo exited (${code}):\n${out}\n${err}`)));
      });
      const rest = /REST API: .*\(listening on (http:\/\/\S+)\)/.exec(ready)?.[1];
      const key = /API key:\s+(rly_\S+)/.exec(ready)?.[1];
      const user = /\/v1\/platform\/users\/([^\s"/?]+)\n/.exec(ready)?.[1];
      assert.ok(rest && key && user, ready);
      const res = await fetch(`${rest}/v1/platform/users/${user}`, { headers: { authorization: `Bearer ${key}` } });
      assert.equal(res.status, 200);
      const body = (await res.json()) as { data: { type: string; preferredUsername: string } };
      assert.equal(body.data.type, 'Person');
      assert.equal(body.data.preferredUsername, user);
    } finally {
      if (demo.exitCode === null) process.kill(-(demo.pid as number), 'SIGTERM');
      await exited;
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('every package the shipped code imports is a runtime dependency', async () => {
  const pkg = JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
  const { readdir } = await import('node:fs/promises');
  const files = [...(await readdir(join(ROOT, 'src'), { recursive: true })).map((f) => join('src', f)), ...(await readdir(join(ROOT, 'emulator'), { recursive: true })).map((f) => join('emulator', f))]
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts') && !f.endsWith('test-client.ts'));
  const imported = new Set<string>();
  for (const file of files) {
    const text = await readFile(join(ROOT, file), 'utf8');
    for (const match of text.matchAll(/(?:^import\s(?!type\s)[^'"]*?from\s+|import\()\s*'([^'.][^']*)'/gm)) {
      const name = match[1].startsWith('@') ? match[1].split('/').slice(0, 2).join('/') : match[1].split('/')[0];
      if (!name.startsWith('node:')) imported.add(name);
    }
  }
  assert.ok(imported.has('fastify') && imported.has('zod'), [...imported].join(' '));
  for (const name of imported) assert.ok(Object.hasOwn(pkg.dependencies, name), `${name} is imported at run time but not in dependencies`);
});
