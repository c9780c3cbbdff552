// `reelay export <rest path>`: pages any collection to NDJSON (one AS2 item per line) through the
// same operations the API serves, with a progress bar on a terminal and a resumable stop on Ctrl-C.
import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { parseArgs } from 'node:util';
import type { Writable } from 'node:stream';
import { z } from 'zod';
import type { Env, Io } from './index.ts';
import { configInputFrom, parseConfig } from '../config/config.ts';
import { createServices } from '../app.ts';
import { OPERATIONS } from '../operations/registry.ts';
import type { Operation } from '../operations/types.ts';
import { isAppError } from '../errors.ts';

type Page = { orderedItems: unknown[]; nextCursor?: string; totalItems?: number };

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

function progress(io: Io, written: number, total: number | undefined): void {
  const stream = io.stderr as Writable & { isTTY?: boolean; columns?: number };
  if (!stream.isTTY) return;
  const width = 30;
  const known = total !== undefined && total > 0;
  const filled = known ? Math.min(width, Math.round((written / (total as number)) * width)) : 0;
  const bar = known ? `[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ` : '';
  stream.write(`\r${bar}${written}${known ? `/${total}` : ''} items`);
}

export async function runExport(argv: string[], env: Env, io: Io): Promise<number> {
  let values: Record<string, string | undefined>;
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({
      args: argv,
      options: { max: { type: 'string' }, out: { type: 'string' }, from: { type: 'string' }, 'data-dir': { type: 'string' } },
      allowPositionals: true,
      strict: true,
    }));
  } catch (error) {
    io.stderr.write(`reelay export: ${(error as Error).message}\n`);
    return 2;
  }
  const target = positionals[0];
  const matched = target ? matchCollectionPath(target) : undefined;
  if (!target || !matched) {
    io.stderr.write('reelay export: give the REST path of a collection, e.g. /v1/platform/users/someone/videos\n');
    return 2;
  }
  const max = values.max === undefined ? Number.POSITIVE_INFINITY : Number(values.max);
  if (!(max >= 1) || (Number.isFinite(max) && !Number.isInteger(max))) {
    io.stderr.write('reelay export: --max must be a positive integer\n');
    return 2;
  }
  const config = parseConfig(configInputFrom(env, { dataDir: values['data-dir'], logLevel: env.REELAY_LOG_LEVEL ?? 'warn' }));
  const services = await createServices(config);
  const out: Writable = values.out ? createWriteStream(values.out, { flags: values.from ? 'a' : 'w' }) : io.stdout;
  let stopRequested = false;
  const onSigint = () => (stopRequested = true);
  process.on('SIGINT', onSigint);
  const { op, params } = matched;
  let cursor = values.from ?? params.cursor ?? '0';
  let written = 0;
  let exitCode = 0;
  try {
    for (let pages = 0; pages < 1_000_000; pages++) {
      const pageSize = params.count ? Number(params.count) : maxCount(op);
      const count = Number.isFinite(max) ? Math.max(1, Math.min(pageSize, max - written)) : pageSize;
      const input = services.executor.parse(op, { ...params, cursor, count });
      const page = services.executor.view(await services.executor.execute(op, input), 'full') as Page;
      for (const item of page.orderedItems.slice(0, Math.max(0, max - written))) {
        if (!out.write(`${JSON.stringify(item)}\n`)) await once(out, 'drain');
        written++;
      }
      progress(io, written, page.totalItems);
      // Pages are sized to end exactly at --max, so nextCursor is where a resumed export starts.
      cursor = page.nextCursor ?? '';
      if (!cursor || written >= max || stopRequested) break;
    }
  } catch (error) {
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
  if (cursor) io.stderr.write(`resume with: reelay export '${target}' --from ${cursor}${values.out ? ` --out ${values.out}` : ''}\n`);
  return exitCode;
}
