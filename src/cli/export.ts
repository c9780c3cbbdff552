// `reelay export <rest path>`: pages any collection to NDJSON (one AS2 item per line) through the
// same operations the API serves. stdout carries the items alone; progress (on a terminal), logs,
// retries and the resume command go to stderr. A page that fails for a passing reason is retried
// with bounded backoff; Ctrl-C stops after the current page (twice: at once).
import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { parseArgs } from 'node:util';
import type { Writable } from 'node:stream';
import { setTimeout as delay } from 'node:timers/promises';
import { z } from 'zod';
import type { Env, Io } from './io.ts';
import { loadConfig, STORE_FLAGS } from './options.ts';
import { usageError } from './errors.ts';
import { createLogger, createServices, type Services } from '../app.ts';
import { OPERATIONS } from '../operations/registry.ts';
import type { Operation } from '../operations/types.ts';
import { isAppError } from '../errors.ts';

type Page = { orderedItems: unknown[]; nextCursor?: string; totalItems?: number };

const OPTIONS = {
  max: { type: 'string' },
  out: { type: 'string' },
  from: { type: 'string' },
  retries: { type: 'string' },
  ...STORE_FLAGS,
} as const;

/** Retries of one page after its first attempt, and the backoff between them (doubling, capped). */
export const RETRIES_DEFAULT = 4;
const RETRIES_MAX = 10;
const BACKOFF_FIRST_MS = 2_000;
const BACKOFF_MAX_MS = 60_000;

export type ExportDeps = {
  /** Waits between attempts; tests pass one that records the delays instead of waiting. */
  sleep?: (ms: number) => Promise<void>;
};

/** Finds the collection operation serving a REST path such as `/v1/platform/users/x/videos?order=popular`. */
export function matchCollectionPath(target: string): { op: Operation; params: Record<string, string> } | undefined {
  const url = new URL(target, 'http://reelay.invalid');
  for (const op of OPERATIONS) {
    if (!op.itemType) continue;
    for (const path of [op.path, ...(op.aliases ?? [])]) {
      const names: string[] = [];
      const pattern = path.replace(/:([A-Za-z]+)/g, (_, name: string) => {
        names.push(name);
        return '([^/]+)';
      });
      const match = new RegExp(`^${pattern}/?$`).exec(url.pathname);
      if (!match) continue;
      const params: Record<string, string> = Object.fromEntries(url.searchParams);
      names.forEach((name, i) => (params[name] = decodeURIComponent(match[i + 1])));
      return { op, params };
    }
  }
  return undefined;
}

function maxCount(op: Operation): number {
  const schema = z.toJSONSchema((op.input.shape as Record<string, z.ZodType>).count, { io: 'input' }) as {
    anyOf?: { maximum?: number }[];
    maximum?: number;
  };
  return schema.maximum ?? schema.anyOf?.find((s) => s.maximum !== undefined)?.maximum ?? 30;
}

/**
 * How many items this run will write, when it can be known: --max, or what the collection holds
 * when the export starts at its beginning (never fewer than already written). A resumed export
 * without --max cannot know how many items lie before its cursor, so it shows a count alone.
 */
export function progressTotal(input: { max: number; totalItems: number | undefined; resumed: boolean; written: number }): number | undefined {
  const { max, totalItems, resumed, written } = input;
  const collection = resumed || totalItems === undefined ? undefined : totalItems;
  const total = Number.isFinite(max) ? Math.min(max, collection ?? max) : collection;
  return total === undefined ? undefined : Math.max(total, written);
}

/** Delay before retry `retry` (1-based): doubling from 2 s, at least what the platform asked, capped. */
export function backoffMs(retry: number, retryAfterSeconds: number | undefined): number {
  const doubling = BACKOFF_FIRST_MS * 2 ** (retry - 1);
  return Math.min(BACKOFF_MAX_MS, Math.max(doubling, (retryAfterSeconds ?? 0) * 1000));
}

/** Quotes a word for a POSIX shell when it needs it. */
function shellWord(word: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/** The command that goes on from `cursor`: every original option again, with --from and --max updated. */
export function resumeCommand(target: string, values: Record<string, string | undefined>, cursor: string, max: number | undefined): string {
  const words = ['reelay', 'export', target];
  for (const name of Object.keys(OPTIONS)) {
    if (name === 'from' || name === 'max') continue;
    const value = values[name];
    if (value !== undefined) words.push(`--${name}`, value);
  }
  if (max !== undefined) words.push('--max', String(max));
  words.push('--from', cursor);
  return words.map(shellWord).join(' ');
}

function progress(io: Io, written: number, total: number | undefined): void {
  const stream = io.stderr as Writable & { isTTY?: boolean };
  if (!stream.isTTY) return;
  const width = 30;
  const filled = total ? Math.min(width, Math.round((written / total) * width)) : 0;
  const bar = total ? `[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ` : '';
  stream.write(`\r${bar}${written}${total ? `/${total}` : ''} items`);
}

function parseCount(value: string | undefined, name: string, fallback: number, min: number, max: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < min || n > max) throw usageError(`--${name} must be a whole number from ${min} to ${max}, got "${value}"`);
  return n;
}

export async function runExport(argv: string[], env: Env, io: Io, deps: ExportDeps = {}): Promise<number> {
  const { values, positionals } = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true });
  const target = positionals[0];
  const matched = target ? matchCollectionPath(target) : undefined;
  if (!target || !matched || positionals.length > 1) throw usageError('give the REST path of one collection, e.g. /v1/platform/users/someone/videos');
  const max = values.max === undefined ? Number.POSITIVE_INFINITY : parseCount(values.max, 'max', 0, 1, Number.MAX_SAFE_INTEGER);
  const retries = parseCount(values.retries, 'retries', RETRIES_DEFAULT, 0, RETRIES_MAX);
  const config = loadConfig(env, { dataDir: values['data-dir'], databaseUrl: values['database-url'], logLevel: env.REELAY_LOG_LEVEL ?? 'warn' });
  const sleep = deps.sleep ?? ((ms: number) => delay(ms));
  // Logs share stderr with the progress and the resume hint; stdout is for items only.
  const services = await createServices(config, { logger: createLogger(config, io.stderr) });
  const out: Writable = values.out ? createWriteStream(values.out, { flags: values.from ? 'a' : 'w' }) : io.stdout;
  let stopRequested = false;
  const onSigint = () => {
    if (stopRequested) process.exit(130);
    stopRequested = true;
    io.stderr.write('\nreelay export: stopping after this page (Ctrl-C again to stop at once)\n');
  };
  process.on('SIGINT', onSigint);
  const { op, params } = matched;
  const resumed = values.from !== undefined;
  let cursor = values.from ?? params.cursor ?? '0';
  let written = 0;
  let exitCode = 0;
  let failed = false;
  try {
    for (let pages = 0; pages < 1_000_000; pages++) {
      const pageSize = params.count ? Number(params.count) : maxCount(op);
      const count = Number.isFinite(max) ? Math.max(1, Math.min(pageSize, max - written)) : pageSize;
      const page = await fetchPage(services, op, { ...params, cursor, count }, { retries, sleep, io, stopped: () => stopRequested });
      for (const item of page.orderedItems.slice(0, Math.max(0, max - written))) {
        if (!out.write(`${JSON.stringify(item)}\n`)) await once(out, 'drain');
        written++;
      }
      progress(io, written, progressTotal({ max, totalItems: page.totalItems, resumed, written }));
      // Pages are sized to end exactly at --max, so nextCursor is where a resumed export starts.
      cursor = page.nextCursor ?? '';
      if (!cursor || written >= max || stopRequested) break;
    }
  } catch (error) {
    failed = true;
    const text = isAppError(error) ? `${error.code}: ${error.message}` : 'internal error';
    if (!isAppError(error)) services.logger.error({ err: error }, 'export failed');
    io.stderr.write(`\nreelay export: ${text}\n`);
    exitCode = 1;
  } finally {
    process.off('SIGINT', onSigint);
    if (out !== io.stdout) {
      out.end();
      await once(out, 'close');
    }
    await services.close();
  }
  io.stderr.write(`\nexported ${written} items\n`);
  // Without --out the items went to stdout: the next run's belong after them (`>> FILE`).
  const append = values.out ? '' : ' (append its output to this one\'s)';
  if (cursor && (failed || stopRequested)) {
    // Stopped early: the resumed run writes what this one had left to write.
    io.stderr.write(`resume with${append}: ${resumeCommand(target, values, cursor, Number.isFinite(max) ? max - written : undefined)}\n`);
    if (!failed) exitCode = 130;
  } else if (cursor) {
    io.stderr.write(`more items remain; the next ${max} with${append}: ${resumeCommand(target, values, cursor, max)}\n`);
  }
  return exitCode;
}

type RetryOptions = { retries: number; sleep: (ms: number) => Promise<void>; io: Io; stopped: () => boolean };

/** One page through the executor; a retryable failure is tried again after a backoff, `retries` times at most. */
async function fetchPage(services: Services, op: Operation, raw: Record<string, unknown>, options: RetryOptions): Promise<Page> {
  const input = services.executor.parse(op, raw);
  for (let retry = 1; ; retry++) {
    try {
      return services.executor.view(await services.executor.execute(op, input), 'full') as Page;
    } catch (error) {
      if (!isAppError(error) || !error.retryable || retry > options.retries || options.stopped()) throw error;
      const waitMs = backoffMs(retry, error.retryAfterSeconds);
      options.io.stderr.write(`\nreelay export: page failed (${error.code}), retry ${retry} of ${options.retries} in ${Math.round(waitMs / 1000)} s\n`);
      await options.sleep(waitMs);
    }
  }
}
