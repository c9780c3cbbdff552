#!/usr/bin/env -S node --max-semi-space-size=8
// The `reelay` command. From a clone it runs the TypeScript sources under Node 24's type stripping;
// installed from the package (Node does not strip types under node_modules) it runs the JavaScript
// that `npm pack` emitted into dist/.
import { existsSync } from 'node:fs';

const sources = new URL('../src/main.ts', import.meta.url);
const installed = import.meta.url.includes('/node_modules/') || !existsSync(sources);
await import(installed ? new URL('../dist/src/main.js', import.meta.url).href : sources.href);
