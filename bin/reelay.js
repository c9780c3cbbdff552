#!/usr/bin/env -S node --max-semi-space-size=8
// The installed `reelay` command: the TypeScript entry point runs under Node 24's type stripping.
await import('../src/main.ts');
