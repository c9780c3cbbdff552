// Measures every tool's default answer in each preset on the emulator (tokens: o200k_base via
// gpt-tokenizer) and rewrites the size table of docs/mcp.md: `npm run measure:mcp`.
import { readFileSync, writeFileSync } from 'node:fs';
import { startStack } from '../helpers/stack.ts';
import { measureTools, sizeTable } from './preset-sizes.ts';

const DOC = new URL('../../docs/mcp.md', import.meta.url);
const BEGIN = '<!-- measure:mcp begin -->';
const END = '<!-- measure:mcp end -->';

const stack = await startStack();
try {
  const table = sizeTable(await measureTools(stack));
  const doc = readFileSync(DOC, 'utf8');
  const start = doc.indexOf(BEGIN);
  const end = doc.indexOf(END);
  if (start < 0 || end < start) throw new Error(`docs/mcp.md has no ${BEGIN} … ${END} section`);
  writeFileSync(DOC, `${doc.slice(0, start + BEGIN.length)}\n${table}\n${doc.slice(end)}`);
  console.log(table);
} finally {
  await stack.close();
}
