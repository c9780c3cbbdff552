import { test } from 'node:test';
import assert from 'node:assert/strict';
import { activeAllocator, describeAllocator, forgetAddedAllocator, JEMALLOC_CONF, JEMALLOC_PATHS, parseAllocatorMode, planAllocator } from './allocator.ts';

const DEBIAN = '/usr/lib/x86_64-linux-gnu/libjemalloc.so.2';
const only = (...paths: string[]) => (path: string) => paths.includes(path);

test('auto: replaces the process once with jemalloc preloaded when the system has it', () => {
  const plan = planAllocator({}, only(DEBIAN), true);
  assert.deepEqual(plan, { action: 'exec', path: DEBIAN, env: { LD_PRELOAD: DEBIAN, MALLOC_CONF: JEMALLOC_CONF, REELAY_ALLOCATOR_EXEC: 'preload+conf' } });
  // The replaced process runs as it is, even if the loader refused the preload.
  assert.deepEqual(planAllocator({ REELAY_ALLOCATOR_EXEC: 'preload+conf' }, only(DEBIAN), true), { action: 'stay', reason: 'after_exec' });
  // Found on another distribution's path too.
  assert.equal((planAllocator({ REELAY_ALLOCATOR: 'auto' }, only('/usr/lib64/libjemalloc.so.2'), true) as { path: string }).path, '/usr/lib64/libjemalloc.so.2');
});

test("the operator's own preload and MALLOC_CONF are kept", () => {
  assert.deepEqual(planAllocator({ LD_PRELOAD: '/opt/libjemalloc.so.2' }, only(DEBIAN), true), { action: 'stay', reason: 'preloaded' });
  const plan = planAllocator({ LD_PRELOAD: '/opt/other.so', MALLOC_CONF: 'narenas:1' }, only(DEBIAN), true);
  assert.equal(plan.action, 'exec');
  assert.deepEqual(plan.action === 'exec' && [plan.env.LD_PRELOAD, plan.env.MALLOC_CONF], [`${DEBIAN}:/opt/other.so`, 'narenas:1']);
});

test('once running, what serve added leaves its environment, so the processes it starts (Chromium) get the operator\'s', () => {
  const added = planAllocator({}, only(DEBIAN), true);
  const env: Record<string, string | undefined> = { PATH: '/bin', ...(added.action === 'exec' ? added.env : {}) };
  forgetAddedAllocator(env);
  assert.deepEqual(env, { PATH: '/bin' });
  const own = planAllocator({ LD_PRELOAD: '/opt/other.so', MALLOC_CONF: 'narenas:1' }, only(DEBIAN), true);
  const ownEnv: Record<string, string | undefined> = { ...(own.action === 'exec' ? own.env : {}) };
  forgetAddedAllocator(ownEnv);
  assert.deepEqual(ownEnv, { LD_PRELOAD: '/opt/other.so', MALLOC_CONF: 'narenas:1' });
  // Started by hand with jemalloc preloaded: nothing of the operator's is touched.
  const byHand = { LD_PRELOAD: DEBIAN, MALLOC_CONF: 'x' };
  forgetAddedAllocator(byHand);
  assert.deepEqual(byHand, { LD_PRELOAD: DEBIAN, MALLOC_CONF: 'x' });
});

test('system, none found, or no execve: run as is; jemalloc demanded but missing fails naming the variable', () => {
  assert.deepEqual(planAllocator({ REELAY_ALLOCATOR: 'system' }, only(DEBIAN), true), { action: 'stay', reason: 'system' });
  assert.deepEqual(planAllocator({}, only(), true), { action: 'stay', reason: 'not_found' });
  assert.deepEqual(planAllocator({}, only(DEBIAN), false), { action: 'stay', reason: 'unsupported' });
  assert.throws(() => planAllocator({ REELAY_ALLOCATOR: 'jemalloc' }, only(), true), /REELAY_ALLOCATOR=jemalloc.*libjemalloc2/);
  assert.throws(() => parseAllocatorMode('tcmalloc'), /REELAY_ALLOCATOR must be auto, jemalloc or system, got "tcmalloc"/);
  assert.equal(parseAllocatorMode(' '), 'auto');
  assert.ok(JEMALLOC_PATHS.includes(DEBIAN));
});

test('the allocator in use is read from the memory map, and said in one line', () => {
  const maps = `55d0 r--p 00000000 08:01 1 /usr/bin/node\n7f00 r-xp 00000000 08:01 2 ${DEBIAN}\n`;
  const jemalloc = activeAllocator(() => maps);
  assert.deepEqual(jemalloc, { name: 'jemalloc', path: DEBIAN });
  assert.match(describeAllocator(jemalloc, 'auto'), /^Memory allocator: jemalloc \(\/usr\/lib\/x86_64-linux-gnu\/libjemalloc\.so\.2\)/);
  assert.deepEqual(activeAllocator(() => '55d0 r--p 0 08:01 1 /usr/bin/node\n'), { name: 'system' });
  assert.deepEqual(activeAllocator(() => { throw new Error('no /proc'); }), { name: 'system' });
  assert.match(describeAllocator({ name: 'system' }, 'system'), /REELAY_ALLOCATOR=system/);
  assert.match(describeAllocator({ name: 'system' }, 'auto'), /install libjemalloc2/);
});
