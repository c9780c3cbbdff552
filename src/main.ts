// Process entry point: the only module that reads process.env and argv; everything else is handed them.
import { installCrashHandlers } from './crash.ts';
import { createLogger } from './app.ts';
import { runCli } from './cli/index.ts';

// Before anything asynchronous: a rejection nobody handles is a bug, logged (scrubbed) and fatal.
installCrashHandlers(process, createLogger({ logLevel: 'info' }), (code) => process.exit(code));

const code = await runCli(process.argv.slice(2), process.env, {
  stdout: process.stdout,
  stderr: process.stderr,
});
if (code !== undefined) process.exitCode = code;
