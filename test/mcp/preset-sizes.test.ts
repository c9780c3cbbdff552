// Projection presets measured where agents meet them: every tool's default answer on the emulator.
// minimal stays within a quarter of full for every tool, and standard never exceeds full.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startStack, type Stack } from '../helpers/stack.ts';
import { OPERATIONS } from '../../src/operations/registry.ts';
import { measureTools, sizeTable, type ToolSizes } from './preset-sizes.ts';

let stack: Stack;
let rows: ToolSizes[];
before(async () => {
  stack = await startStack();
  rows = await measureTools(stack);
});
after(() => stack.close());

describe('preset sizes of every tool, default arguments', () => {
  it('measures every tool', () => {
    assert.deepEqual(rows.map((r) => r.call.tool).sort(), OPERATIONS.map((op) => op.tool).sort());
    for (const row of rows) if (row.call.paged) assert.ok((row.items ?? 0) > 0, `${row.call.tool} answered an empty page`);
  });

  it('minimal is at most 25% of full in JSON bytes, for every tool', () => {
    const over = rows.filter((r) => r.presets.minimal.bytes > 0.25 * r.presets.full.bytes);
    assert.deepEqual(over.map((r) => `${r.call.tool}: ${r.presets.minimal.bytes} of ${r.presets.full.bytes} bytes`), []);
  });

  it('standard is never larger than full, and minimal never larger than standard', () => {
    for (const { call, presets } of rows) {
      assert.ok(presets.standard.bytes <= presets.full.bytes, call.tool);
      assert.ok(presets.minimal.bytes < presets.standard.bytes, call.tool);
    }
  });

  it('the size table has one row per tool with token counts', () => {
    const table = sizeTable(rows).split('\n');
    assert.equal(table.length, 2 + OPERATIONS.length);
    for (const row of rows) assert.ok(table.some((line) => line.startsWith(`| \`${row.call.tool}\` |`)), row.call.tool);
    assert.ok(rows.every((r) => r.presets.full.tokens > r.presets.minimal.tokens && r.presets.minimal.tokens > 0));
  });
});
