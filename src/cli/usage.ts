// The help texts: `reelay --help` for the whole command, `reelay <command> --help` for one command.
// Every option also reads its REELAY_* environment variable (README.md lists them).
import { DOCTOR_USAGE } from './doctor.ts';
import { WATCH_HELP } from './watch.ts';

const SERVICE_OPTIONS = `  --port N               REST API port (REELAY_PORT, 8080)
  --mcp-port N           MCP tool server port (REELAY_MCP_PORT, 8081)
  --host H               address to listen on (REELAY_HOST, 127.0.0.1)
  --data-dir DIR         embedded store directory (REELAY_DATA_DIR, ./data)
  --public-url URL       public URL of the REST API (REELAY_PUBLIC_URL)
  --mcp-public-url URL   public URL of the tool server (REELAY_MCP_PUBLIC_URL)
  --database-url URL     PostgreSQL instead of the embedded store (REELAY_DATABASE_URL)
  --redis-url URL        Redis for the shared cache and limits (REELAY_REDIS_URL)
  --log-level LEVEL      fatal, error, warn, info, debug, trace or silent (REELAY_LOG_LEVEL)`;

const STORE_OPTIONS = `  --data-dir DIR         embedded store directory (REELAY_DATA_DIR, ./data)
  --database-url URL     PostgreSQL instead of the embedded store (REELAY_DATABASE_URL)`;

export const COMMAND_HELP: Record<string, string> = {
  serve: `Usage: reelay serve [options]

Serve the REST API and the MCP tool server against the live platform. On first start (no key in
the store) it creates an API key and prints it once on stderr. JSON logs go to stdout.

${SERVICE_OPTIONS}
`,
  demo: `Usage: reelay demo [options]

The same service against a local platform emulator: prints the URLs, a fresh API key and curl
examples that work as printed. Ctrl-C stops it. Its store is DIR/demo, apart from the live one.

${SERVICE_OPTIONS}
  --emulator-port N      platform emulator port (REELAY_EMULATOR_PORT, 8090)
`,
  emulator: `Usage: reelay emulator [options]

Run the platform emulator alone (tests, benchmarks, HAR replay); stops on Ctrl-C.

  --port N               port (default 0: any free port)
  --host H               address (default 127.0.0.1)
  --seed S               dataset seed (default 1)
  --faults FILE          JSON fault rules: {"rules":[{"path","probability","kind",...}]}
  --har FILE             replay recorded platform traffic
  --waf-rate X           share of page requests challenged by the WAF (0..1)
  --latency-ms N         added latency per request
  --profile P            strict (default) or lenient signature checks
`,
  keys: `Usage: reelay keys <subcommand> [options]

  keys create --name NAME [--account NAME]   create an API key; prints the key alone on stdout
  keys list                                  list keys: id, prefix, name, account, use, revocation
  keys revoke ID|PREFIX                      revoke at once, on REST and MCP (the PREFIX column of
                                             keys list, the key id, or the full key)
  keys usage [--key ID|PREFIX] [--since YYYY-MM-DD]
                                             requests per key, day and operation
  keys rotate-cursor-key                     seal new collection cursors with a new key (older
                                             cursors stay valid for 24 h)

Every subcommand takes:
${STORE_OPTIONS}
`,
  export: `Usage: reelay export <REST path of a collection> [options] > items.ndjson

Page a collection (e.g. /v1/platform/users/someone/videos?order=popular) through the same
operations the API serves and write one ActivityStreams item per line (NDJSON). Only items go to
stdout; progress, logs and the resume hint go to stderr. A page that fails for a passing reason is
retried with backoff before the export gives up; Ctrl-C stops after the current page. Either way
it prints the command that resumes where it stopped.

  --max N                stop after N items (default: the whole collection)
  --out FILE             write to FILE instead of stdout (appended to when --from is given)
  --from CURSOR          resume from the cursor a previous export printed
  --retries N            attempts per page after the first, for retryable failures (default 4)
${STORE_OPTIONS}
`,
  get: `Usage: reelay get <platform URL> [options]

Print the object a platform URL names as JSON (one line), through the same operations the API
serves, like \`yt-dlp -j\`:

  https://www.tiktok.com/@user/video/123    the video (also /@user/photo/123)
  https://www.tiktok.com/@user              the user's profile
  https://www.tiktok.com/@user/live         the user's live stream (exit 1, not_live, when off air)
  https://www.tiktok.com/tag/name           the first page of the tag's videos

  --pretty               indent the JSON
${STORE_OPTIONS}
`,
  'signin-link': `Usage: reelay signin-link [options]

Print a one-time link that signs an account in to the OAuth consent page.

  --account NAME         the account (default: default)
  --mcp-public-url URL   public URL of the tool server (REELAY_MCP_PUBLIC_URL)
  --data-dir DIR         embedded store directory (REELAY_DATA_DIR, ./data)
`,
  doctor: `${DOCTOR_USAGE}

Run every operation once against the platform (or the emulator at --origin) and say what works.
Exit 0 only when every operation works.
`,
  watch: WATCH_HELP,
};

export const HELP = `reelay: public short-video platform data as ActivityStreams JSON, over REST and MCP.

Usage: reelay <command> [options]      reelay <command> --help      reelay --version

Commands:
  serve                 Serve the REST API and the MCP tool server against the live platform
  demo                  The same service against a local platform emulator, with an API key and curl examples
  emulator              Run the platform emulator alone
  keys create --name NAME [--account NAME]
                        Create an API key; prints the key alone on stdout
  keys list             List keys (prefix, name, account, OAuth client, last use, revocation)
  keys revoke ID|PREFIX Revoke a key at once, on REST and MCP
  keys usage [--key ID|PREFIX] [--since YYYY-MM-DD]
                        Requests per key, day and operation
  keys rotate-cursor-key
                        Seal new collection cursors with a new key (older cursors stay valid for 24 h)
  export <rest path> [--max N] [--out FILE] [--from CURSOR]
                        Page a collection (e.g. /v1/platform/users/someone/videos?order=popular) to NDJSON
  get <platform URL>    Print the video, user, live stream or tag page a platform URL names, as JSON
  signin-link [--account NAME]
                        Print a one-time link that signs an account in to the OAuth consent page
  doctor [--origin URL] [--json]
                        Run every operation once against the platform and say what works (exit 0 if all do)
  watch add|list|rm|history
                        Manage watches on a running reelay: snapshots, events, webhooks (reelay watch --help)
  help                  This text

Every option also reads its REELAY_* environment variable; see README.md for all of them.
`;
