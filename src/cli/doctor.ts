// `reelay doctor`: runs every operation once against the configured platform (the real one unless
// --origin says otherwise) through the same client and operations the service uses, and prints
// one row per operation: the route that answered, how it was sent, status, latency, items, and a
// one-line hint on failure. Exit status 0 only when every operation works. Bounded in time.
import { parseArgs } from 'node:util';
import pino from 'pino';
import type { Env, Io } from './io.ts';
import { asUsageError } from './errors.ts';
import { configInputFrom, parseConfig, type Config } from '../config/config.ts';
import { createConfiguredClient, type ConfiguredClient } from '../app.ts';
import { createMemoryStore } from '../cache/memory-store.ts';
import { createLocalCoalescer } from '../cache/coalescer.ts';
import { createResponseCache } from '../cache/response-cache.ts';
import { scalePolicies } from '../cache/policies.ts';
import { createExecutor, type Executor } from '../operations/execute.ts';
import { OPERATIONS } from '../operations/registry.ts';
import { socialNsUrl } from '../http/server.ts';
import { AppError, isAppError, toAppError } from '../errors.ts';
import type { OutcomeEvent } from '../upstream/request.ts';

export const DOCTOR_USAGE = `Usage: reelay doctor [--origin URL] [--user NAME] [--video ID] [--tag NAME] [--live-user NAME] [--json] [--timeout-seconds N]`;

/** Well-known public subjects on the real platform; a video, comment and transcript are taken from them. */
const REAL_DEFAULTS = { user: 'tiktok', tag: 'fyp' };
/** How long one operation may take, and the whole run (the issue's bound is 60 s). */
const OPERATION_MS = 20_000;
const DEFAULT_TOTAL_SECONDS = 55;

export type DoctorRow = {
  operation: string;
  ok: boolean;
  /** `ok`, or the problem code, or `skipped`. */
  status: string;
  /** Platform endpoints that answered (`/api/user/detail/`, `/api/creator/item_list/#unsigned`, …). */
  route: string;
  /** signed (profile), unsigned, browser, page or plain. */
  via: string;
  latencyMs: number;
  items: number | undefined;
  /** What was answered when it is a definite state rather than data (not live, no transcript…). */
  note?: string;
  hint?: string;
};

/** Answers that prove the route works although they carry no data for this subject. */
const DEFINITE_STATES: Record<string, string> = {
  not_live: 'the user is not live now',
  no_transcript: 'no transcript in that language',
  private_account: 'the account is private',
  private_content: 'the list is hidden by its owner',
};

function hintFor(error: AppError, browserMode: string): string {
  switch (error.code) {
    case 'platform_unreachable':
      return 'cannot reach the platform: check egress or REELAY_PROXIES';
    case 'upstream_timeout':
      return 'the platform did not answer in time: check egress or REELAY_PROXIES';
    case 'upstream_blocked':
      return browserMode === 'off'
        ? 'refused with native signing: enable REELAY_BROWSER (apt-get install chromium)'
        : 'refused even through the browser: add identities or proxies (REELAY_PROXIES), or try REELAY_SIGNING';
    case 'upstream_error':
      return 'the platform answered with an error or a changed shape: see the log; REELAY_SIGNING or reelay may need an update';
    case 'not_found':
      return 'not found on the platform: pass --user, --video or --tag that exist';
    default:
      return error.message;
  }
}

type Subjects = {
  user: string;
  liveUser: string;
  tag: string;
  video?: string;
  /** A comment with replies and its video (which may differ from `video`). */
  comment?: { video: string; id: string };
  language?: string;
};

/** The emulator publishes its notable entities; the real platform gets the well-known defaults. */
async function emulatorManifest(origin: string): Promise<Record<string, any> | undefined> {
  try {
    const res = await fetch(new URL('/__emulator/manifest', origin), { signal: AbortSignal.timeout(2_000) });
    if (!res.ok) return undefined;
    const manifest = (await res.json()) as Record<string, any>;
    return manifest && typeof manifest.users === 'object' ? manifest : undefined;
  } catch {
    return undefined;
  }
}

async function chooseSubjects(values: Record<string, string | boolean | undefined>, origin: string): Promise<Subjects> {
  // Only a given --origin may be an emulator; the real platform is never asked for its manifest.
  const manifest = typeof values.origin === 'string' ? await emulatorManifest(origin) : undefined;
  const given = (name: string) => (typeof values[name] === 'string' ? (values[name] as string) : undefined);
  const user = given('user') ?? manifest?.users?.public ?? REAL_DEFAULTS.user;
  return {
    user,
    liveUser: given('live-user') ?? manifest?.users?.live ?? user,
    tag: given('tag') ?? manifest?.tags?.popular ?? REAL_DEFAULTS.tag,
    video: given('video') ?? manifest?.videos?.withTranscripts?.id,
    comment: given('video') || !manifest?.videos?.withReplies ? undefined : { video: manifest.videos.withReplies.id, id: manifest.videos.withReplies.commentId },
    language: manifest?.videos?.withTranscripts?.languages?.[0],
  };
}

function viaOf(endpoint: string, browserEndpoints: string[], signing: string): string {
  if (browserEndpoints.includes(endpoint)) return 'browser';
  if (endpoint.endsWith('#unsigned')) return 'unsigned';
  if (endpoint.startsWith('page:')) return 'page';
  if (endpoint.startsWith('/webcast/') || endpoint === 'subtitle') return 'plain';
  return `signed (${signing})`;
}

type Check = { operation: string; input: () => Record<string, unknown> | string; after?: (data: any) => void };

export async function runDoctor(argv: string[], env: Env, io: Io): Promise<number> {
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        origin: { type: 'string' },
        'webcast-origin': { type: 'string' },
        user: { type: 'string' },
        video: { type: 'string' },
        tag: { type: 'string' },
        'live-user': { type: 'string' },
        json: { type: 'boolean' },
        'timeout-seconds': { type: 'string' },
      },
      strict: true,
    }));
  } catch (error) {
    throw asUsageError(error);
  }
  const totalSeconds = Number(values['timeout-seconds'] ?? DEFAULT_TOTAL_SECONDS);
  if (!Number.isFinite(totalSeconds) || totalSeconds <= 0 || totalSeconds > 600) {
    io.stderr.write(`reelay doctor: --timeout-seconds must be a number of seconds between 1 and 600\n`);
    return 2;
  }
  let config: Config;
  try {
    const origin = values.origin as string | undefined;
    const webcast = (values['webcast-origin'] as string | undefined) ?? origin;
    config = parseConfig(configInputFrom(env, { webOrigin: origin, webcastOrigin: webcast, logLevel: env.REELAY_LOG_LEVEL ?? 'error' }));
  } catch (error) {
    io.stderr.write(`reelay doctor: ${(error as Error).message}\n`);
    return 2;
  }

  // Logs go to stderr so the table (or the JSON) on stdout stays clean.
  const logger = pino({ level: config.logLevel }, io.stderr);
  const outcomes: OutcomeEvent[] = [];
  let client: ConfiguredClient;
  try {
    client = await createConfiguredClient(config.platform, logger, { onOutcome: (e) => outcomes.push(e) });
  } catch (error) {
    io.stderr.write(`reelay doctor: ${(error as Error).message}\n`);
    return 2;
  }
  const cache = createResponseCache({ store: createMemoryStore({ maxBytes: 64 * 1024 * 1024 }), coalescer: createLocalCoalescer() });
  const executor = createExecutor({
    client,
    cache,
    policies: scalePolicies(1),
    config: { publicBaseUrl: 'http://reelay.doctor', socialNsUrl: socialNsUrl('http://reelay.doctor'), webOrigin: config.platform.webOrigin },
  });
  const subjects = await chooseSubjects(values, config.platform.webOrigin);
  const rows = await runChecks(executor, client, config, subjects, outcomes, Date.now() + totalSeconds * 1000);
  await client.close();
  await cache.close();

  if (values.json) io.stdout.write(`${JSON.stringify({ origin: config.platform.webOrigin, ok: rows.every((r) => r.ok), rows }, null, 2)}\n`);
  else io.stdout.write(renderTable(config.platform.webOrigin, subjects, rows));
  return rows.every((r) => r.ok) ? 0 : 1;
}

async function runChecks(
  executor: Executor,
  client: ConfiguredClient,
  config: Config,
  subjects: Subjects,
  outcomes: OutcomeEvent[],
  deadline: number,
): Promise<DoctorRow[]> {
  /** Why a dependent check cannot run: the failure of the check that should have given its subject. */
  const missing: { video?: DoctorRow; comment?: DoctorRow } = {};
  const idOf = (item: any) => (typeof item?.internalId === 'string' ? item.internalId : undefined);
  const checks: Check[] = [
    { operation: 'user', input: () => ({ username: subjects.user }) },
    {
      operation: 'userVideos',
      input: () => ({ username: subjects.user, count: 5 }),
      after: (data) => (subjects.video ??= idOf(data.orderedItems?.[0])),
    },
    { operation: 'userReposts', input: () => ({ username: subjects.user, count: 5 }) },
    { operation: 'userLikes', input: () => ({ username: subjects.user, count: 5 }) },
    { operation: 'userCollections', input: () => ({ username: subjects.user, count: 5 }) },
    { operation: 'userFollowers', input: () => ({ username: subjects.user, count: 5 }) },
    { operation: 'live', input: () => ({ username: subjects.liveUser }) },
    { operation: 'video', input: () => (subjects.video ? { videoId: subjects.video } : 'video') },
    {
      operation: 'comments',
      input: () => (subjects.video ? { videoId: subjects.video, count: 20 } : 'video'),
      after: (data) => {
        const items: any[] = data.orderedItems ?? [];
        const id = idOf(items.find((c) => (c.replyCount ?? 0) > 0) ?? items[0]);
        if (id && subjects.video) subjects.comment ??= { video: subjects.video, id };
      },
    },
    {
      operation: 'replies',
      input: () => (subjects.comment ? { videoId: subjects.comment.video, commentId: subjects.comment.id, count: 5 } : subjects.video ? 'comment' : 'video'),
    },
    { operation: 'transcript', input: () => (subjects.video ? { videoId: subjects.video, language: subjects.language ?? 'en-US' } : 'video') },
    { operation: 'tagVideos', input: () => ({ tagName: subjects.tag, count: 5 }) },
  ];

  const rows: DoctorRow[] = [];
  for (const check of checks) {
    const op = OPERATIONS.find((o) => o.name === check.operation) as (typeof OPERATIONS)[number];
    const input = check.input();
    if (typeof input === 'string') {
      const cause = missing[input as 'video' | 'comment'];
      rows.push({
        operation: check.operation, ok: false, status: 'skipped', route: '-', via: '-', latencyMs: 0, items: undefined,
        hint: cause?.hint ? `${cause.hint} (no ${input} to check: pass --video)` : `no ${input} to check: pass --video`,
      });
      continue;
    }
    const remaining = deadline - Date.now();
    if (remaining <= 0) {
      rows.push({ operation: check.operation, ok: false, status: 'skipped', route: '-', via: '-', latencyMs: 0, items: undefined, hint: lastHint(rows) ?? 'the doctor ran out of time' });
      continue;
    }
    const seen = outcomes.length;
    const started = performance.now();
    let row: DoctorRow;
    try {
      const data = await withinMs(runOperation(executor, op, input), Math.min(OPERATION_MS, remaining));
      row = { operation: check.operation, ok: true, status: 'ok', route: '', via: '', latencyMs: 0, items: Array.isArray(data?.orderedItems) ? data.orderedItems.length : 1 };
      check.after?.(data);
    } catch (error) {
      const problem = isAppError(error) ? error : toAppError(error);
      const state = DEFINITE_STATES[problem.code];
      row = state
        ? { operation: check.operation, ok: true, status: 'ok', route: '', via: '', latencyMs: 0, items: 0, note: state }
        : { operation: check.operation, ok: false, status: problem.code, route: '', via: '', latencyMs: 0, items: undefined, hint: hintFor(problem, config.platform.browser) };
    }
    row.latencyMs = Math.round(performance.now() - started);
    const answered = [...new Set(outcomes.slice(seen).filter((o) => o.outcome === 'ok' || DEFINITE_OUTCOMES.has(o.outcome)).map((o) => o.endpoint))];
    row.route = answered.join(' + ') || (row.ok ? '(cache)' : '-');
    row.via = [...new Set(answered.map((e) => viaOf(e, client.browserEndpoints(), config.platform.signing)))].join(' + ') || '-';
    if (!row.ok && check.operation === 'userVideos') missing.video = row;
    if (!row.ok && check.operation === 'comments') missing.comment = row;
    rows.push(row);
  }
  return rows;
}

/** Platform outcomes that are answers (the route worked) rather than failures. */
const DEFINITE_OUTCOMES = new Set(['not_found', 'private_account', 'private_content', 'geo_blocked']);

function lastHint(rows: DoctorRow[]): string | undefined {
  return [...rows].reverse().find((r) => r.hint)?.hint;
}

async function runOperation(executor: Executor, op: (typeof OPERATIONS)[number], raw: Record<string, unknown>): Promise<any> {
  try {
    const result = await executor.execute(op, executor.parse(op, raw));
    return JSON.parse(result.body.toString('utf8'));
  } catch (error) {
    // No transcript in the language tried but others exist: read one of those, so the download is checked too.
    const languages = isAppError(error) && error.code === 'no_transcript' ? error.details?.languages : undefined;
    if (!Array.isArray(languages) || languages.length === 0 || languages.includes(raw.language)) throw error;
    const result = await executor.execute(op, executor.parse(op, { ...raw, language: languages[0] }));
    return JSON.parse(result.body.toString('utf8'));
  }
}

function withinMs<T>(work: Promise<T>, ms: number): Promise<T> {
  work.catch(() => undefined);
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new AppError('upstream_timeout', 'The platform did not answer in time.')), ms);
    work.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}

function renderTable(origin: string, subjects: Subjects, rows: DoctorRow[]): string {
  const header = ['operation', 'status', 'route', 'via', 'ms', 'items', 'hint'];
  const lines = rows.map((r) => [r.operation, r.status, r.route, r.via, String(r.latencyMs), r.items === undefined ? '-' : String(r.items), r.hint ?? r.note ?? '']);
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => (i === header.length - 1 ? 0 : l[i].length))));
  const format = (cells: string[]) => cells.map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i]))).join('  ').trimEnd();
  const failed = rows.filter((r) => !r.ok).length;
  return [
    `reelay doctor: ${origin} (user ${subjects.user}, tag ${subjects.tag}${subjects.video ? `, video ${subjects.video}` : ''})`,
    '',
    format(header),
    ...lines.map(format),
    '',
    failed === 0 ? `all ${rows.length} operations work` : `${failed} of ${rows.length} operations failed`,
    '',
  ].join('\n');
}
