// `reelay emulator`: the platform emulator on its own (tests, benchmarks, demos, HAR replay). Its
// options and faults file are checked first, so a mistake in them is one line, not a stack.
import { z } from 'zod';
import { parseEmulatorArgs, runEmulatorCli } from '../../emulator/cli.ts';
import { FaultConfig } from '../../emulator/faults.ts';
import { CliError, usageError } from './errors.ts';

export async function runEmulatorCommand(argv: string[]): Promise<number> {
  let options;
  try {
    options = parseEmulatorArgs(argv);
  } catch (error) {
    const e = error as Error & { code?: string };
    if (e.code?.startsWith('ERR_PARSE_ARGS_') || e.message.startsWith('--')) throw usageError(e.message);
    throw faultsFileError(argv, e);
  }
  if (options.faults !== undefined) {
    const parsed = FaultConfig.safeParse(options.faults);
    if (!parsed.success) throw faultsFileError(argv, new Error(describeIssue(parsed.error)));
  }
  await runEmulatorCli(argv);
  return 0;
}

/** The --faults file could not be read or parsed: name it and say why in one line. */
function faultsFileError(argv: string[], error: Error & { code?: string }): CliError {
  const at = argv.findIndex((arg) => arg === '--faults' || arg.startsWith('--faults='));
  const file = at < 0 ? 'the faults file' : argv[at].startsWith('--faults=') ? argv[at].slice('--faults='.length) : argv[at + 1];
  const reason = error.code === 'ENOENT' ? 'no such file' : error instanceof SyntaxError ? `not JSON (${error.message})` : error.message.split('\n')[0];
  return new CliError(`bad faults file ${file}: ${reason}`);
}

function describeIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  const where = issue.path.length > 0 ? issue.path.join('.') : '(top level)';
  return `${where}: ${issue.message} (expected {"rules":[{"path":"/api/*","probability":0.1,"kind":"status_5xx"}]})`;
}
