// `reelay watch add|list|rm|history`: manage watches on a running reelay through its REST API, as
// the API key given (watches belong to the key that created them). History prints as a table, CSV,
// sparklines, or writes the SVG chart to a file.
import { writeFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import type { Env, Io } from './io.ts';
import type { HistoryPoint, WatchHistory, WatchView, WatchWithSecret } from '../watches/schemas.ts';

const OPTIONS = {
  url: { type: 'string' },
  key: { type: 'string' },
  every: { type: 'string' },
  webhook: { type: 'string' },
  events: { type: 'string' },
  from: { type: 'string' },
  to: { type: 'string' },
  csv: { type: 'boolean' },
  plot: { type: 'boolean' },
  svg: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

export const WATCH_HELP = `Usage:
  reelay watch add user|video|tag|live TARGET --every 15m [--webhook URL] [--events video.published,snapshot,…]
  reelay watch list
  reelay watch rm ID
  reelay watch history ID [--from TIME] [--to TIME] [--csv | --plot | --svg FILE]
Options: --url URL (REELAY_URL, http://127.0.0.1:8080)  --key KEY (REELAY_API_KEY)
`;

class UsageError extends Error {}

type Problem = { detail?: string; title?: string; code?: string };

async function api(base: string, key: string, method: string, path: string, body?: unknown, accept = 'application/json'): Promise<Response> {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, accept, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  if (!response.ok) {
    const problem = (await response.json().catch(() => ({}))) as Problem;
    throw new Error(`${response.status} ${problem.code ?? ''}: ${problem.detail ?? problem.title ?? response.statusText}`);
  }
  return response;
}

function table(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  return [header, ...rows].map((r) => r.map((c, i) => c.padEnd(widths[i])).join('  ').trimEnd()).join('\n') + '\n';
}

const BARS = '▁▂▃▄▅▆▇█';

/** One sparkline per metric, scaled to its own range, with its first and last values. */
export function plotHistory(points: readonly HistoryPoint[], width = 60): string {
  if (points.length === 0) return 'no snapshots in this range\n';
  const metrics = Object.keys(points[0]).filter((k) => k !== 'at') as Exclude<keyof HistoryPoint, 'at'>[];
  const step = Math.max(1, Math.ceil(points.length / width));
  const sampled = points.filter((_, i) => i % step === 0 || i === points.length - 1);
  const lines = [`${String(points[0].at)} → ${String(points.at(-1)!.at)} (${points.length} snapshots)`];
  const label = Math.max(...metrics.map((m) => m.length));
  for (const metric of metrics) {
    const values = sampled.map((p) => Number(p[metric] ?? 0));
    const min = Math.min(...values);
    const span = Math.max(...values) - min;
    const line = values.map((v) => BARS[span === 0 ? 0 : Math.round(((v - min) / span) * (BARS.length - 1))]).join('');
    lines.push(`${metric.padEnd(label)}  ${line}  ${values[0]} → ${values.at(-1)}`);
  }
  return lines.join('\n') + '\n';
}

export async function runWatch(argv: string[], env: Env, io: Io): Promise<number> {
  try {
    const { values, positionals } = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true });
    const base = (values.url ?? env.REELAY_URL ?? 'http://127.0.0.1:8080').replace(/\/+$/, '');
    const key = values.key ?? env.REELAY_API_KEY;
    const [sub, ...args] = positionals;
    if (values.help || sub === 'help') {
      io.stdout.write(WATCH_HELP);
      return 0;
    }
    if (!key) throw new UsageError('an API key is needed: --key KEY or REELAY_API_KEY');
    switch (sub) {
      case 'add': {
        const [kind, target] = args;
        if (!kind || !target || !values.every) throw new UsageError('add needs a kind, a target and --every');
        const body = {
          kind, target, every: values.every,
          ...(values.webhook ? { webhook: { url: values.webhook } } : {}),
          ...(values.events ? { events: values.events.split(',').map((e) => e.trim()).filter(Boolean) } : {}),
        };
        const { data } = (await (await api(base, key, 'POST', '/v1/watches', body)).json()) as { data: WatchWithSecret };
        io.stdout.write(`${data.id}\n`);
        if (data.webhook?.secret) io.stderr.write(`webhook secret (shown once, keep it to verify signatures): ${data.webhook.secret}\n`);
        return 0;
      }
      case 'list': {
        const { data } = (await (await api(base, key, 'GET', '/v1/watches')).json()) as { data: WatchView[] };
        const rows = data.map((w) => [w.id, w.kind, w.target, w.every, w.status, w.lastRunAt ?? '-', w.webhook?.url ?? '-', w.pausedReason ?? w.lastError ?? '']);
        io.stdout.write(table(['ID', 'KIND', 'TARGET', 'EVERY', 'STATUS', 'LAST RUN', 'WEBHOOK', 'NOTE'], rows));
        return 0;
      }
      case 'rm': {
        if (!args[0]) throw new UsageError('rm needs a watch id');
        await api(base, key, 'DELETE', `/v1/watches/${encodeURIComponent(args[0])}`);
        return 0;
      }
      case 'history': {
        if (!args[0]) throw new UsageError('history needs a watch id');
        const query = new URLSearchParams();
        if (values.from) query.set('from', values.from);
        if (values.to) query.set('to', values.to);
        const path = `/v1/watches/${encodeURIComponent(args[0])}/history${query.size ? `?${query}` : ''}`;
        if ([values.csv, values.plot, values.svg !== undefined].filter(Boolean).length > 1) throw new UsageError('history takes one of --csv, --plot and --svg');
        if (values.svg !== undefined) {
          if (values.svg === '') throw new UsageError('--svg needs a file name');
          const chart = await (await api(base, key, 'GET', path, undefined, 'image/svg+xml')).text();
          await writeFile(values.svg, chart);
          io.stderr.write(`wrote ${values.svg} (${Buffer.byteLength(chart)} bytes)\n`);
          return 0;
        }
        if (values.csv) {
          io.stdout.write(await (await api(base, key, 'GET', path, undefined, 'text/csv')).text());
          return 0;
        }
        const { data } = (await (await api(base, key, 'GET', path)).json()) as { data: WatchHistory };
        if (values.plot) {
          io.stdout.write(plotHistory(data.points));
          return 0;
        }
        const columns = data.points.length ? Object.keys(data.points[0]) : ['at'];
        io.stdout.write(table(columns.map((c) => c.toUpperCase()), data.points.map((p) => columns.map((c) => String(p[c as keyof HistoryPoint] ?? '')))));
        return 0;
      }
      default:
        throw new UsageError(sub ? `unknown watch command "${sub}"` : 'a watch command is needed');
    }
  } catch (error) {
    const usage = error instanceof UsageError || (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS');
    io.stderr.write(`reelay watch: ${(error as Error).message}\n${usage ? `\n${WATCH_HELP}` : ''}`);
    return usage ? 2 : 1;
  }
}
