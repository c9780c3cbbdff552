// Process entry point: the only module that reads process.env and argv; everything else is handed them.
import { runCli } from './cli/index.ts';

const code = await runCli(process.argv.slice(2), process.env, {
  stdout: process.stdout,
  stderr: process.stderr,
});
if (code !== undefined) process.exitCode = code;
