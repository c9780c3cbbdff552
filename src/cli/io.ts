// What every `reelay` command is handed instead of touching process globals: its output streams and
// the environment (only main.ts reads process.env). Kept apart from index.ts so commands need not
// import the dispatcher that imports them.
import type { Writable } from 'node:stream';

export type Io = { stdout: Writable; stderr: Writable; stdin?: NodeJS.ReadStream };
export type Env = Record<string, string | undefined>;
