import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkWebhookUrl, classifyAddress, createGuardedLookup } from './ssrf.ts';

const open = { allowPrivate: true };
const closed = { allowPrivate: false };
const fakeDns = (table: Record<string, string[]>) => async (host: string) => {
  const found = table[host];
  if (!found) throw Object.assign(new Error('ENOTFOUND'), { code: 'ENOTFOUND' });
  return found.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
};

test('addresses are classified: metadata and link-local forbidden, loopback and private ranges private', () => {
  for (const a of ['169.254.169.254', '169.254.1.1', 'fe80::1', 'fd00:ec2::254', '100.100.100.200', '0.0.0.0', '::', '224.0.0.1', '::ffff:169.254.169.254']) {
    assert.equal(classifyAddress(a), 'forbidden', a);
  }
  for (const a of ['127.0.0.1', '10.0.0.1', '172.16.5.4', '192.168.1.1', '::1', 'fd12::1', '::ffff:10.0.0.1', '100.64.0.1']) {
    assert.equal(classifyAddress(a), 'private', a);
  }
  for (const a of ['93.184.216.34', '2606:2800:220:1::1', '172.32.0.1']) assert.equal(classifyAddress(a), 'public', a);
});

test('a webhook to 169.254.169.254 is refused even with private addresses allowed', async () => {
  assert.match(String(await checkWebhookUrl('http://169.254.169.254/latest/meta-data', open)), /link-local/);
  assert.match(String(await checkWebhookUrl('http://[fd00:ec2::254]/', open)), /metadata/);
  assert.match(String(await checkWebhookUrl('http://metadata.google.internal/', open)), /metadata/);
});

test('a webhook to 10.0.0.1 is refused without the flag and allowed with it', async () => {
  assert.match(String(await checkWebhookUrl('https://10.0.0.1/hook', closed)), /REELAY_WEBHOOK_ALLOW_PRIVATE/);
  assert.equal(await checkWebhookUrl('https://10.0.0.1/hook', open), undefined);
});

test('a name is judged by every address it resolves to', async () => {
  const dns = fakeDns({ 'good.example': ['93.184.216.34'], 'sneaky.example': ['93.184.216.34', '169.254.169.254'] });
  assert.equal(await checkWebhookUrl('https://good.example/h', closed, dns), undefined);
  assert.match(String(await checkWebhookUrl('https://sneaky.example/h', open, dns)), /resolves to 169\.254\.169\.254/);
  assert.match(String(await checkWebhookUrl('https://nowhere.example/h', open, dns)), /does not resolve/);
});

test('bad URLs are refused: other schemes, credentials', async () => {
  assert.match(String(await checkWebhookUrl('ftp://good.example/', open)), /http/);
  assert.match(String(await checkWebhookUrl('https://u:p@good.example/', open)), /credentials/);
  assert.match(String(await checkWebhookUrl('not a url', open)), /absolute/);
});

test('the connect-time lookup refuses a name that now resolves to a forbidden address (rebinding)', async () => {
  const table: Record<string, string[]> = { 'rebind.example': ['93.184.216.34'] };
  const lookup = createGuardedLookup(closed, fakeDns(table));
  const first = await new Promise<unknown>((resolve) => lookup('rebind.example', {}, (error, address) => resolve(error ?? address)));
  assert.equal(first, '93.184.216.34');
  table['rebind.example'] = ['169.254.169.254'];
  const second = await new Promise<unknown>((resolve) => lookup('rebind.example', { all: true }, (error, address) => resolve(error ?? address)));
  assert.ok(second instanceof Error);
  assert.match((second as Error).message, /169\.254\.169\.254/);
});
