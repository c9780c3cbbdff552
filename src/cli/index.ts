// The `reelay` command: dispatches to serve, demo, emulator, keys, export, signin-link and doctor.
import type { Writable } from 'node:stream';
import { runServe } from './serve.ts';
import { runDemo } from './demo.ts';
import { runKeys } from './keys.ts';
import { runExport } from './export.ts';
import { runEmulatorCommand } from './emulator.ts';
import { runSigninLink } from './signin-link.ts';
import { runDoctor } from './doctor.ts';
import { runWatch } from './watch.ts';

export type Io = { stdout: Writable; stderr: Writable; stdin?: NodeJS.ReadStream };
export type Env = Record<string, string | undefined>;

export const HELP = `reelay: public short-video platform data as ActivityStreams JSON, over REST and MCP.

Usage: reelay <command> [options]

Commands:
  serve                 Serve the REST API and the MCP tool server against the live platform
                          --port N (REELAY_PORT, 8080)  --mcp-port N (REELAY_MCP_PORT, 8081)
                          --data-dir DIR (REELAY_DATA_DIR, ./data)  --host H (REELAY_HOST, 127.0.0.1)
  demo                  The same service against a local platform emulator, with an API key and curl examples
                          serve's options plus --emulator-port N (REELAY_EMULATOR_PORT, 8090)
  emulator              Run the platform emulator alone
                          --port N --seed S --faults FILE --har FILE --waf-rate X --latency-ms N
  keys create --name NAME [--account NAME] [--data-dir DIR]
                        Create an API key; prints the key alone on stdout
  keys list [--data-dir DIR]
                        List keys (prefix, name, account, OAuth client, last use, revocation)
  keys revoke ID|PREFIX [--data-dir DIR]
                        Revoke a key at once, on REST and MCP
  keys usage [--key ID|PREFIX] [--since YYYY-MM-DD] [--data-dir DIR]
                        Requests per key, day and operation
  keys rotate-cursor-key [--data-dir DIR]
                        Seal new collection cursors with a new key (older cursors stay valid for 24 h)
  export <rest path> [--max N] [--out FILE] [--from CURSOR] [--data-dir DIR]
                        Page a collection (e.g. /v1/platform/users/someone/videos?order=popular) to NDJSON
  signin-link [--account NAME] [--data-dir DIR]
                        Print a one-time link that signs an account in to the OAuth consent page
  doctor [--origin URL] [--user NAME] [--video ID] [--tag NAME] [--live-user NAME] [--json]
                        Run every operation once against the platform and say what works (exit 0 if all do)
  watch add|list|rm|history  Manage watches on a running reelay (reelay watch --help)
  help                  This text

Every option also reads its REELAY_* environment variable; see README.md for all of them.
`;

export async function runCli(argv: string[], env: Env, io: Io): Promise<number | undefined> {
  const [command, ...rest] = argv;
  switch (command) {
    case 'serve':
      return runServe(rest, env, io);
    case 'demo':
      return runDemo(rest, env, io);
    case 'emulator':
      return runEmulatorCommand(rest);
    case 'keys':
      return runKeys(rest, env, io);
    case 'export':
      return runExport(rest, env, io);
    case 'signin-link':
      return runSigninLink(rest, env, io);
    case 'doctor':
      return runDoctor(rest, env, io);
    case 'watch':
      return runWatch(rest, env, io);
    case undefined:
    case 'help':
    case '--help':
    case '-h':
      io.stdout.write(HELP);
      return command === undefined ? 1 : 0;
    default:
      io.stderr.write(`reelay: unknown command "${command}"\n\n${HELP}`);
      return 2;
  }
}
