// `reelay emulator`: the platform emulator on its own (tests, benchmarks, demos, HAR replay).
import { runEmulatorCli } from '../../emulator/cli.ts';

export async function runEmulatorCommand(argv: string[]): Promise<number> {
  await runEmulatorCli(argv);
  return 0;
}
