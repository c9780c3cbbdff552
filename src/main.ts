// Process entry point: the only module that reads process.env and argv; everything else is handed them.
import { existsSync } from 'node:fs';
import { forgetAddedAllocator, planAllocator } from './allocator.ts';

const argv = process.argv.slice(2);

// serve runs on jemalloc when the system has it (src/allocator.ts): the process replaces itself
// (same PID and stdio) before the service's modules are loaded, so nothing is started twice.
if (argv[0] === 'serve') {
  const execve = process.platform === 'linux' ? process.execve : undefined;
  let plan;
  try {
    plan = planAllocator(process.env, existsSync, typeof execve === 'function');
  } catch (error) {
    process.stderr.write(`reelay serve: ${(error as Error).message}\n`);
    process.exit(2);
  }
  if (plan.action === 'exec' && execve) {
    try {
      execve.call(process, process.execPath, [process.execPath, ...process.execArgv, ...process.argv.slice(1)], { ...process.env, ...plan.env });
    } catch (error) {
      // Returns only when the system refused: serve goes on with the malloc it has.
      process.stderr.write(`reelay serve: could not restart on jemalloc (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}); using the system's malloc\n`);
    }
  }
  // Loaded by now: the processes serve starts (Chromium) get the operator's environment back.
  forgetAddedAllocator(process.env);
}

const { installCrashHandlers } = await import('./crash.ts');
const { createLogger } = await import('./app.ts');
const { runCli } = await import('./cli/index.ts');

// serve and demo write JSON logs on stdout; every other command keeps stdout for its output (NDJSON, JSON, keys).
const logsOnStdout = argv[0] === 'serve' || argv[0] === 'demo';

// Before anything asynchronous: a rejection nobody handles is a bug, logged (scrubbed) and fatal.
installCrashHandlers(process, createLogger({ logLevel: 'info' }, logsOnStdout ? undefined : process.stderr), (code) => process.exit(code));

// The emulator (demo, emulator) builds its SDK page with node:module's stripTypeScriptTypes, which
// Node flags as experimental on stderr at every start; that expected notice is dropped, others kept.
for (const print of process.listeners('warning')) {
  process.off('warning', print);
  process.on('warning', (warning) => {
    if (!(warning.name === 'ExperimentalWarning' && warning.message.includes('stripTypeScriptTypes'))) print(warning);
  });
}

// A reader that went away (`reelay export … | head`) ends the command quietly, not with a crash.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  throw error;
});

const code = await runCli(argv, process.env, {
  stdout: process.stdout,
  stderr: process.stderr,
});
if (code !== undefined) process.exitCode = code;
