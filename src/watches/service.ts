// The watch service: what REST, MCP and the CLI call. Validates input once, scopes every watch to
// its owner (another owner gets not_found, never forbidden: ids are not confirmed to exist), and
// owns the scheduler that runs watches and delivers their webhooks.
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import type { Logger } from 'pino';
import { AppError } from '../errors.ts';
import type { Executor } from '../operations/execute.ts';
import { formatDurationMs, parseDurationMs } from './duration.ts';
import { normaliseTarget, type Operations } from './observe.ts';
import { createRunner, firstRunAt } from './runner.ts';
import { createScheduler, type Scheduler, type SchedulerDeps } from './scheduler.ts';
import { checkWebhookUrl } from './ssrf.ts';
import { CreateWatchInput, UpdateWatchInput, type DeliveryView, type WatchHistory, type WatchView, type WatchWithSecret } from './schemas.ts';
import { DEFAULT_EVENTS, DELIVERY_STATUSES, type Delivery, type DeliveryStatus, type Snapshot, type Watch, type WatchPatch, type WatchStore } from './types.ts';
import { createWebhookSender, newWebhookSecret, type WebhookSettings } from './webhooks.ts';

export type WatchServiceSettings = {
  minIntervalMs: number;
  retentionMs: number;
  maxPerKey: number;
  pauseAfter: number;
  /** Run the scheduler in this process. */
  scheduler: boolean;
  webhooks: WebhookSettings;
  tickMs?: number;
  runConcurrency?: number;
  deliveryConcurrency?: number;
};

export type WatchServiceDeps = {
  store: WatchStore;
  executor: Executor;
  executorFor(everyMs: number): Executor;
  ops: Operations;
  settings: WatchServiceSettings;
  logger: Pick<Logger, 'warn' | 'info'>;
  now?: () => number;
  random?: () => number;
  onSettled?(event: { kind: 'run' | 'delivery'; id: string }): void;
  /** Whether a watch's owner may still have it run (runner.ts); every owner may when absent. */
  ownerActive?(owner: string): Promise<boolean>;
  /** Builds the scheduler at start: the embedded loop unless the wiring picks another (BullMQ). */
  createScheduler?(deps: SchedulerDeps): Scheduler;
};

/** The longest interval accepted: a watch that runs less than weekly is a reminder, not a watch. */
const EVERY_MAX_MS = 7 * 86_400_000;
export const HISTORY_LIMIT_MAX = 10_000;
export const DELIVERIES_LIMIT_MAX = 500;

function invalid(error: z.ZodError): AppError {
  const params = error.issues.map((i) => ({ name: i.path.join('.') || '(body)', reason: i.code === 'unrecognized_keys' ? `unknown member(s): ${i.keys.join(', ')}` : i.message }));
  return new AppError('invalid_request', `Invalid watch: ${params.map((p) => `${p.name}: ${p.reason}`).join('; ')}`, { details: { params } });
}

/** A watch as the API shows it: never the secret, which is shown once at creation. */
export function publicWatch(w: Watch): WatchView {
  return {
    id: w.id,
    kind: w.kind,
    target: w.target,
    every: formatDurationMs(w.everyMs),
    events: w.events,
    webhook: w.webhookUrl ? { url: w.webhookUrl } : null,
    status: w.status,
    pausedReason: w.pausedReason,
    failures: w.failures,
    lastError: w.lastError,
    lastRunAt: w.lastRunAt === null ? null : new Date(w.lastRunAt).toISOString(),
    nextRunAt: w.status === 'active' ? new Date(w.nextRunAt).toISOString() : null,
    createdAt: new Date(w.createdAt).toISOString(),
    updatedAt: new Date(w.updatedAt).toISOString(),
  };
}

/** The answer that shows a new secret: the watch with it, the one time it is shown. */
function withSecret(watch: WatchView, secret: string | null): WatchView | WatchWithSecret {
  return secret && watch.webhook ? { ...watch, webhook: { url: watch.webhook.url, secret } } : watch;
}

export function publicDelivery(d: Delivery): DeliveryView {
  return {
    id: d.id,
    event: d.eventType,
    status: d.status,
    attempts: d.attempts,
    nextAttemptAt: d.status === 'pending' ? new Date(d.nextAttemptAt).toISOString() : null,
    lastStatus: d.lastStatus,
    lastError: d.lastError,
    createdAt: new Date(d.createdAt).toISOString(),
    deliveredAt: d.deliveredAt === null ? null : new Date(d.deliveredAt).toISOString(),
    payload: JSON.parse(d.payload) as DeliveryView['payload'],
  };
}

export type HistoryResult = { watch: Watch; points: Snapshot[]; truncated: boolean };

/**
 * The JSON page of a history, the same on REST and MCP: `next` is the URL of the rest of the range
 * when `limit` cut it (from the millisecond after the last point, with the same `to` and `limit`).
 */
export function toHistoryPage(publicUrl: string, { watch, points, truncated }: HistoryResult, query: { to?: string; limit?: string }): WatchHistory {
  const last = points.at(-1);
  let next: string | null = null;
  if (truncated && last) {
    const rest = new URLSearchParams({ from: String(last.at + 1) });
    if (query.to) rest.set('to', query.to);
    if (query.limit) rest.set('limit', query.limit);
    next = `${publicUrl}/v1/watches/${watch.id}/history?${rest}`;
  }
  return {
    watch: { id: watch.id, kind: watch.kind, target: watch.target },
    points: points.map((p) => ({ at: new Date(p.at).toISOString(), ...p.metrics })),
    next,
  };
}

export type WatchService = ReturnType<typeof createWatchService>;

export function createWatchService(deps: WatchServiceDeps) {
  const { store, settings } = deps;
  const now = deps.now ?? Date.now;
  const random = deps.random ?? Math.random;
  const runner = createRunner({
    executorFor: deps.executorFor, ops: deps.ops, now, random, pauseAfter: settings.pauseAfter, webhooks: settings.webhooks,
    ...(deps.ownerActive ? { ownerActive: deps.ownerActive } : {}),
  });
  const attempt = createWebhookSender(settings.webhooks, { now });
  let scheduler: Scheduler | undefined;

  function parseEvery(text: string): number {
    const ms = parseDurationMs(text);
    if (ms === undefined) throw new AppError('invalid_request', 'every must be a whole number with a unit: s, m, h or d (e.g. "15m").', { details: { params: [{ name: 'every', reason: 'bad duration' }] } });
    if (ms < settings.minIntervalMs || ms > EVERY_MAX_MS) {
      throw new AppError('invalid_request', `every must be between ${formatDurationMs(settings.minIntervalMs)} and 7d.`, { details: { params: [{ name: 'every', reason: 'out of range' }], minimum: formatDurationMs(settings.minIntervalMs) } });
    }
    return ms;
  }

  async function checkUrl(url: string): Promise<void> {
    const refusal = await checkWebhookUrl(url, settings.webhooks);
    if (refusal) throw new AppError('invalid_request', `The webhook URL is refused: ${refusal}.`, { details: { params: [{ name: 'webhook.url', reason: refusal }] } });
  }

  async function owned(owner: string, id: string): Promise<Watch> {
    const watch = /^wch_[A-Za-z0-9_-]{1,40}$/.test(id) ? await store.get(id) : null;
    if (!watch || watch.owner !== owner) throw new AppError('not_found', `No watch ${id}.`);
    return watch;
  }

  return {
    async create(owner: string, raw: unknown) {
      const parsed = CreateWatchInput.safeParse(raw);
      if (!parsed.success) throw invalid(parsed.error);
      const input = parsed.data;
      const everyMs = parseEvery(input.every);
      const target = normaliseTarget(deps.executor, deps.ops, input.kind, input.target);
      if (input.webhook) await checkUrl(input.webhook.url);
      if ((await store.countByOwner(owner)) >= settings.maxPerKey) {
        throw new AppError('forbidden', `This key has ${settings.maxPerKey} watches, the most allowed (REELAY_WATCH_MAX_PER_KEY).`);
      }
      const at = now();
      const secret = input.webhook ? newWebhookSecret() : null;
      const watch = await store.insert({
        id: `wch_${randomBytes(12).toString('base64url')}`,
        owner, kind: input.kind, target, everyMs,
        webhookUrl: input.webhook?.url ?? null, webhookSecret: secret,
        events: input.events ?? [...DEFAULT_EVENTS],
        nextRunAt: firstRunAt(at, everyMs, random), createdAt: at,
      });
      scheduler?.wake({ watch });
      const shown = publicWatch(watch);
      return { ...shown, webhook: shown.webhook && secret ? { url: shown.webhook.url, secret } : null } satisfies WatchWithSecret;
    },
    async list(owner: string) {
      return (await store.listByOwner(owner)).map(publicWatch);
    },
    async get(owner: string, id: string) {
      return publicWatch(await owned(owner, id));
    },
    async update(owner: string, id: string, raw: unknown) {
      const watch = await owned(owner, id);
      const parsed = UpdateWatchInput.safeParse(raw);
      if (!parsed.success) throw invalid(parsed.error);
      const input = parsed.data;
      const patch: WatchPatch = {};
      let secret: string | null = null;
      if (input.every !== undefined) patch.everyMs = parseEvery(input.every);
      if (input.events !== undefined) patch.events = input.events;
      if (input.webhook === null) Object.assign(patch, { webhookUrl: null, webhookSecret: null });
      if (input.webhook) {
        await checkUrl(input.webhook.url);
        patch.webhookUrl = input.webhook.url;
        // A watch that gains a webhook gets a secret (shown in this answer only); a moved URL keeps its secret.
        if (!watch.webhookSecret) patch.webhookSecret = secret = newWebhookSecret();
      }
      if (input.status === 'paused' && watch.status !== 'paused') Object.assign(patch, { status: 'paused', pausedReason: 'paused on request' });
      if (input.status === 'active' && watch.status !== 'active') {
        Object.assign(patch, { status: 'active', pausedReason: null, failures: 0, nextRunAt: firstRunAt(now(), patch.everyMs ?? watch.everyMs, random) });
      }
      const updated = await store.update(id, patch, now());
      if (!updated) throw new AppError('not_found', `No watch ${id}.`);
      scheduler?.wake({ watch: updated });
      return withSecret(publicWatch(updated), secret);
    },
    async remove(owner: string, id: string) {
      await owned(owner, id);
      await store.delete(id);
      scheduler?.wake({ removed: id });
    },
    async history(owner: string, id: string, query: { from?: string; to?: string; limit?: string }): Promise<HistoryResult> {
      const watch = await owned(owner, id);
      const time = (name: string, text: string | undefined, fallback: number) => {
        if (text === undefined || text === '') return fallback;
        const ms = /^\d{1,15}$/.test(text) ? Number(text) : Date.parse(text);
        if (!Number.isFinite(ms)) throw new AppError('invalid_request', `${name} must be an ISO 8601 time or epoch milliseconds.`, { details: { params: [{ name, reason: 'bad time' }] } });
        return ms;
      };
      const from = time('from', query.from, 0);
      const to = time('to', query.to, now());
      const limit = query.limit === undefined ? 1000 : Number(query.limit);
      if (!Number.isInteger(limit) || limit < 1 || limit > HISTORY_LIMIT_MAX) {
        throw new AppError('invalid_request', `limit must be an integer from 1 to ${HISTORY_LIMIT_MAX}.`, { details: { params: [{ name: 'limit', reason: 'out of range' }] } });
      }
      const points = await store.history(id, from, to, limit + 1);
      return { watch, points: points.slice(0, limit), truncated: points.length > limit };
    },
    async deliveries(owner: string, id: string, query: { status?: string; limit?: string }) {
      await owned(owner, id);
      const status = query.status as DeliveryStatus | undefined;
      if (status !== undefined && !DELIVERY_STATUSES.includes(status)) {
        throw new AppError('invalid_request', 'status must be pending, delivered or failed.', { details: { params: [{ name: 'status', reason: 'unknown status' }] } });
      }
      const limit = query.limit === undefined ? 100 : Number(query.limit);
      if (!Number.isInteger(limit) || limit < 1 || limit > DELIVERIES_LIMIT_MAX) {
        throw new AppError('invalid_request', `limit must be an integer from 1 to ${DELIVERIES_LIMIT_MAX}.`, { details: { params: [{ name: 'limit', reason: 'out of range' }] } });
      }
      return (await store.listDeliveries(id, status, limit)).map(publicDelivery);
    },
    async redeliver(owner: string, id: string, deliveryId: string) {
      await owned(owner, id);
      const at = now();
      const delivery = await store.redeliver(id, deliveryId, at, at + settings.webhooks.retryForMs);
      if (!delivery) {
        const existing = await store.getDelivery(id, deliveryId);
        if (!existing) throw new AppError('not_found', `No delivery ${deliveryId} for watch ${id}.`);
        return publicDelivery(existing); // Already pending: it is on its way.
      }
      scheduler?.wake({ delivery });
      return publicDelivery(delivery);
    },
    start() {
      if (!settings.scheduler || scheduler) return;
      scheduler = (deps.createScheduler ?? createScheduler)({
        store,
        run: runner.run,
        deliver: async (d) => runner.deliver(d, await store.get(d.watchId), attempt),
        now,
        tickMs: settings.tickMs ?? Math.min(1000, Math.max(50, Math.floor(settings.minIntervalMs / 4))),
        runConcurrency: settings.runConcurrency ?? 4,
        deliveryConcurrency: settings.deliveryConcurrency ?? 8,
        leaseMs: Math.max(60_000, 3 * settings.webhooks.timeoutMs),
        retentionMs: settings.retentionMs,
        logger: deps.logger,
        ...(deps.onSettled ? { onSettled: deps.onSettled } : {}),
      });
      scheduler.start();
    },
    async close() {
      await scheduler?.stop();
      await store.close();
    },
  };
}
