// What one run and one delivery attempt decide: the snapshot, the events turned into pending
// deliveries, when to run next (phase kept, backoff on failure, pause after repeated failures),
// and whether a failed delivery is tried again.
import { isAppError, toAppError } from '../errors.ts';
import type { Executor } from '../operations/execute.ts';
import { deriveEvents, type DerivedEvent } from './events.ts';
import { observe, type Operations } from './observe.ts';
import type { Delivery, DeliveryOutcome, NewDelivery, RunOutcome, Watch } from './types.ts';
import { newDeliveryId, retryDelayMs, type WebhookAttempt, type WebhookSettings } from './webhooks.ts';

export type RunnerDeps = {
  executorFor(everyMs: number): Executor;
  ops: Operations;
  now(): number;
  random(): number;
  pauseAfter: number;
  webhooks: WebhookSettings;
  /**
   * Whether the watch's owner may still have it run: false once the API key that created it is
   * revoked or expired. Its watches then pause instead of polling the platform for no one.
   */
  ownerActive?(owner: string): Promise<boolean>;
};

export const OWNER_GONE_REASON = 'the API key that created this watch was revoked or has expired';

/** Errors that another run will not cure: paused after PERMANENT_PAUSE_AFTER runs, not pauseAfter. */
const PERMANENT = new Set(['not_found', 'private_account', 'private_content', 'geo_blocked', 'invalid_request']);
const PERMANENT_PAUSE_AFTER = 3;
/** The longest a failing watch waits between two runs (unless its own interval is longer). */
const BACKOFF_MAX_MS = 6 * 3_600_000;
/** Runs overdue after a restart or a stall are spread over at most this long, not fired together. */
const CATCH_UP_SPREAD_MS = 30_000;

/** When a new watch runs first: soon (its baseline), spread so a batch of new watches is no herd. */
export function firstRunAt(now: number, everyMs: number, random: () => number): number {
  return now + Math.floor(random() * Math.min(everyMs, CATCH_UP_SPREAD_MS));
}

/** The next slot on the watch's own phase; a run that fell behind is spread over the catch-up window. */
export function nextRunAt(scheduledAt: number, everyMs: number, now: number, random: () => number): number {
  const next = scheduledAt + everyMs;
  return next > now ? next : now + Math.floor(random() * Math.min(everyMs, CATCH_UP_SPREAD_MS));
}

export function backoffMs(failures: number, everyMs: number, random: () => number, retryAfterSeconds?: number): number {
  const cap = Math.max(everyMs, BACKOFF_MAX_MS);
  const exp = Math.min(cap, everyMs * 2 ** Math.min(failures, 20));
  const jittered = Math.round(exp * (0.75 + 0.5 * random()));
  return Math.max(jittered, (retryAfterSeconds ?? 0) * 1000);
}

function payloadOf(watch: Watch, event: DerivedEvent | { type: 'snapshot'; object: unknown; metrics: unknown }, at: number): string {
  const data: Record<string, unknown> = { watch: { id: watch.id, kind: watch.kind, target: watch.target }, runAt: new Date(at).toISOString(), object: event.object };
  if ('changes' in event && event.changes) data.changes = event.changes;
  if ('metrics' in event) data.metrics = event.metrics;
  return JSON.stringify({ type: event.type, timestamp: new Date(at).toISOString(), data });
}

export function createRunner(deps: RunnerDeps) {
  async function run(watch: Watch): Promise<RunOutcome> {
    const at = deps.now();
    try {
      if (deps.ownerActive && !(await deps.ownerActive(watch.owner))) {
        // Not a failure of the target: no request, no snapshot, the watch keeps its failure count.
        return { at: watch.lastRunAt ?? at, nextRunAt: nextRunAt(watch.nextRunAt, watch.everyMs, at, deps.random), deliveries: [], failures: watch.failures, lastError: watch.lastError, pausedReason: OWNER_GONE_REASON };
      }
      const seen = await observe(deps.executorFor(watch.everyMs), deps.ops, watch.kind, watch.target);
      const { events, state } = deriveEvents(watch.kind, watch.state, seen);
      const deliveries: NewDelivery[] = [];
      if (watch.webhookUrl) {
        const wanted = events.filter((e) => watch.events.includes(e.type)).map((e) => payloadOf(watch, e, at));
        if (watch.events.includes('snapshot')) wanted.push(payloadOf(watch, { type: 'snapshot', object: seen.main, metrics: seen.metrics }, at));
        for (const payload of wanted) {
          const type = (JSON.parse(payload) as { type: NewDelivery['eventType'] }).type;
          deliveries.push({ id: newDeliveryId(), watchId: watch.id, eventType: type, payload, nextAttemptAt: at, expiresAt: at + deps.webhooks.retryForMs, createdAt: at });
        }
      }
      return { at, nextRunAt: nextRunAt(watch.nextRunAt, watch.everyMs, deps.now(), deps.random), snapshot: { at, metrics: seen.metrics }, state, deliveries, failures: 0, lastError: null };
    } catch (thrown) {
      const error = toAppError(thrown);
      const failures = watch.failures + 1;
      // Internal errors keep their text out of the API: the code says enough.
      const lastError = isAppError(thrown) ? `${error.code}: ${error.message}` : `${error.code}: run failed`;
      const limit = PERMANENT.has(error.code) ? PERMANENT_PAUSE_AFTER : deps.pauseAfter;
      const outcome: RunOutcome = { at, nextRunAt: at + backoffMs(failures, watch.everyMs, deps.random, error.retryAfterSeconds), deliveries: [], failures, lastError };
      if (failures >= limit) outcome.pausedReason = `paused after ${failures} failed runs in a row; last: ${lastError}`;
      return outcome;
    }
  }

  async function deliver(delivery: Delivery, watch: Watch | null, attempt: WebhookAttempt): Promise<DeliveryOutcome> {
    const attempts = delivery.attempts + 1;
    const base = { attempts, lastStatus: null, deliveredAt: null, nextAttemptAt: deps.now() };
    if (!watch?.webhookUrl || !watch.webhookSecret) return { ...base, status: 'failed', lastError: 'the watch has no webhook any more' };
    const result = await attempt(watch.webhookUrl, watch.webhookSecret, delivery.id, delivery.payload);
    const now = deps.now();
    if (result.ok) return { ...base, status: 'delivered', lastStatus: result.status, lastError: null, deliveredAt: now, nextAttemptAt: now };
    const next = now + retryDelayMs(attempts, { retryBaseMs: deps.webhooks.retryBaseMs, retryDelayMaxMs: deps.webhooks.retryDelayMaxMs }, deps.random);
    const giveUp = result.permanent || next > delivery.expiresAt;
    return { ...base, status: giveUp ? 'failed' : 'pending', lastStatus: result.status, lastError: result.error, nextAttemptAt: giveUp ? now : next };
  }

  return { run, deliver };
}
