// The `reelay` command: dispatches to serve, demo, emulator, keys, export, get, signin-link and
// doctor; answers --help (whole or per command) and --version; and turns every error a command
// ends with into one line on stderr and a non-zero exit (stack only at REELAY_LOG_LEVEL=debug).
import type { Env, Io } from './io.ts';
import { runServe } from './serve.ts';
import { runDemo } from './demo.ts';
import { runKeys } from './keys.ts';
import { runExport } from './export.ts';
import { runGet } from './get.ts';
import { runEmulatorCommand } from './emulator.ts';
import { runSigninLink } from './signin-link.ts';
import { runDoctor } from './doctor.ts';
import { COMMAND_HELP, HELP } from './usage.ts';
import { describeError } from './errors.ts';
import { packageVersion } from './version.ts';
import { runWatch } from './watch.ts';

export type { Env, Io } from './io.ts';
export { HELP } from './usage.ts';

type Command = (argv: string[], env: Env, io: Io) => Promise<number | undefined>;

const COMMANDS: Record<string, Command> = {
  serve: runServe,
  demo: runDemo,
  emulator: (argv) => runEmulatorCommand(argv),
  keys: runKeys,
  export: runExport,
  get: runGet,
  'signin-link': runSigninLink,
  doctor: runDoctor,
  watch: runWatch,
};

/** `--help` or `-h` anywhere before a `--` asks for the command's help instead of running it. */
function wantsHelp(argv: string[]): boolean {
  const end = argv.indexOf('--');
  return (end < 0 ? argv : argv.slice(0, end)).some((arg) => arg === '--help' || arg === '-h');
}

export async function runCli(argv: string[], env: Env, io: Io): Promise<number | undefined> {
  const [command, ...rest] = argv;
  switch (command) {
    case undefined:
    case 'help':
    case '--help':
    case '-h': {
      const topic = command === 'help' ? rest[0] : undefined;
      io.stdout.write(topic && COMMAND_HELP[topic] ? COMMAND_HELP[topic] : HELP);
      return command === undefined ? 1 : 0;
    }
    case '--version':
    case '-v':
    case 'version':
      io.stdout.write(`${packageVersion()}\n`);
      return 0;
  }
  const run = Object.hasOwn(COMMANDS, command) ? COMMANDS[command] : undefined;
  if (!run) {
    io.stderr.write(`reelay: unknown command "${command}" (reelay --help lists them)\n`);
    return 2;
  }
  if (wantsHelp(rest)) {
    io.stdout.write(COMMAND_HELP[command]);
    return 0;
  }
  try {
    return await run(rest, env, io);
  } catch (error) {
    const { line, exitCode } = describeError(error);
    io.stderr.write(`reelay ${command}: ${line}${exitCode === 2 ? ` (reelay ${command} --help)` : ''}\n`);
    if (env.REELAY_LOG_LEVEL === 'debug' || env.REELAY_LOG_LEVEL === 'trace') io.stderr.write(`${(error as Error)?.stack ?? error}\n`);
    return exitCode;
  }
}
