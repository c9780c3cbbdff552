#!/usr/bin/env node
// The installed `reelay` command: the TypeScript entry point runs under Node 24's type stripping.
await import('../src/main.ts');
