// Configuration: flags win over their REELAY_* twins, bad values name their variable, and proxy
// files are read line by line without echoing a line that may hold credentials.
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { configInputFrom, parseConfig, trustProxyOption } from '../src/config/config.ts';
import { loadProxies } from '../src/app.ts';

it('a flag wins over its environment twin and defaults fill the rest', () => {
  const config = parseConfig(configInputFrom({ REELAY_PORT: '9000', REELAY_MCP_PORT: '9001' }, { port: '9100' }));
  assert.equal(config.port, 9100);
  assert.equal(config.mcpPort, 9001);
  assert.equal(config.publicUrl, 'http://127.0.0.1:9100');
  assert.equal(config.dataDir, './data');
  assert.ok(Object.isFrozen(config));
});

it('a bad value stops the start naming the variable', () => {
  assert.throws(() => parseConfig({ port: 'eighty' }), /REELAY_PORT/);
  assert.throws(() => parseConfig({ databaseUrl: 'mysql://x' }), /REELAY_DATABASE_URL/);
  assert.throws(() => parseConfig({ redisUrl: 'http://x' }), /REELAY_REDIS_URL/);
});

it('proxies come from the list and the file, and a bad file line is named by number only', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'reelay-proxies-'));
  try {
    const file = join(dir, 'proxies.txt');
    await writeFile(file, '# residential\nhttp://user:secret@10.0.0.1:8080\n\nsocks5://127.0.0.1:1080\n');
    const config = parseConfig({ proxies: 'http://127.0.0.1:3128', proxiesFile: file });
    assert.deepEqual(await loadProxies(config.platform), [
      'http://127.0.0.1:3128',
      'http://user:secret@10.0.0.1:8080',
      'socks5://127.0.0.1:1080',
    ]);
    await writeFile(file, 'http://127.0.0.1:3128\nuser:hunter2@nowhere\n');
    await assert.rejects(loadProxies(config.platform), (error: Error) => /line 2/.test(error.message) && !error.message.includes('hunter2'));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

it('a REELAY_PROXIES entry that is not a usable proxy URL stops the start, naming the entry but not echoing it', () => {
  for (const bad of ['ftp://127.0.0.1:21', 'htp://user:hunter2@proxy:8080', 'hunter2', 'http://', 'http://127.0.0.1:3128/path', 'socks4://127.0.0.1:1080']) {
    assert.throws(
      () => parseConfig({ proxies: `http://127.0.0.1:3128,${bad}` }),
      (error: Error) => /REELAY_PROXIES/.test(error.message) && /entry 2/.test(error.message) && !error.message.includes('hunter2'),
      bad,
    );
  }
  for (const good of ['http://u:p@127.0.0.1:3128', 'https://proxy.example:443', 'socks5://127.0.0.1:1080', 'socks5h://[::1]:1080']) {
    assert.deepEqual(parseConfig({ proxies: good }).platform.proxies, [good]);
  }
});

it('the browser transport setting takes off, fallback, always or auto, and nothing else', () => {
  assert.equal(parseConfig({}).platform.browser, 'auto');
  assert.equal(parseConfig({ browser: 'always' }).platform.browser, 'always');
  assert.throws(() => parseConfig({ browser: 'sometimes' }), /REELAY_BROWSER/);
});

it('the signing profile is one of the known ones, web-2026 by default', () => {
  assert.equal(parseConfig({}).platform.signing, 'web-2026');
  assert.equal(parseConfig({ signing: 'legacy-xbogus' }).platform.signing, 'legacy-xbogus');
  assert.throws(() => parseConfig({ signing: 'web-2027' }), /REELAY_SIGNING/);
});

it('REELAY_TRUST_PROXY takes a hop count or proxy addresses/CIDRs, and refuses "true" and junk naming the variable', () => {
  assert.equal(parseConfig({}).trustProxy, undefined);
  assert.equal(parseConfig({ trustProxy: '1' }).trustProxy, 1);
  assert.deepEqual(parseConfig({ trustProxy: '10.0.0.1, 10.0.0.0/8,::1,fd00::/8' }).trustProxy, ['10.0.0.1', '10.0.0.0/8', '::1', 'fd00::/8']);
  for (const bad of ['true', '0', '11', 'proxy.example', '10.0.0.0/33', '::1/129', '10.0.0.1/8/1']) {
    assert.throws(() => parseConfig({ trustProxy: bad }), /REELAY_TRUST_PROXY/, bad);
  }
  const hops = trustProxyOption(2);
  assert.ok(typeof hops === 'function' && hops('x', 1) && !hops('x', 2));
});
