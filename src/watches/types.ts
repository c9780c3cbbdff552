// The shapes of watches, their snapshots and their webhook deliveries, shared by the stores, the
// scheduler, the webhook sender and the REST, MCP and CLI adapters.

export const WATCH_KINDS = ['user', 'video', 'tag', 'live'] as const;
export type WatchKind = (typeof WATCH_KINDS)[number];

export const EVENT_TYPES = ['video.published', 'live.started', 'live.ended', 'user.changed', 'snapshot'] as const;
export type EventType = (typeof EVENT_TYPES)[number];

/** Sent unless the watch lists its own: every change, no per-run snapshot (that one is opt-in). */
export const DEFAULT_EVENTS: readonly EventType[] = ['video.published', 'live.started', 'live.ended', 'user.changed'];

export const WATCH_STATUSES = ['active', 'paused'] as const;
export type WatchStatus = (typeof WATCH_STATUSES)[number];

export type Watch = {
  id: string;
  /** Who may see it: `key:<id>`, or `oauth:<client>:<account>` so a refreshed token keeps its watches. */
  owner: string;
  kind: WatchKind;
  /** Username (no @), video id or tag name (no #), normalised as the operations normalise them. */
  target: string;
  everyMs: number;
  webhookUrl: string | null;
  /** `whsec_…`: shown once at creation, kept to sign deliveries. */
  webhookSecret: string | null;
  events: EventType[];
  status: WatchStatus;
  pausedReason: string | null;
  /** Consecutive failed runs. */
  failures: number;
  lastError: string | null;
  nextRunAt: number;
  lastRunAt: number | null;
  /** What the last run saw, for deriving the next run's events (kind-specific JSON). */
  state: Record<string, unknown> | null;
  createdAt: number;
  updatedAt: number;
};

export type NewWatch = Omit<Watch, 'status' | 'pausedReason' | 'failures' | 'lastError' | 'lastRunAt' | 'state' | 'updatedAt'>;

export type WatchPatch = Partial<Pick<Watch, 'everyMs' | 'webhookUrl' | 'webhookSecret' | 'events' | 'status' | 'pausedReason' | 'failures' | 'nextRunAt'>>;

/** Counts recorded by one run; which ones depends on the kind. */
export type Metrics = Record<string, number>;

export type Snapshot = { at: number; metrics: Metrics };

export const DELIVERY_STATUSES = ['pending', 'delivered', 'failed'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

export type Delivery = {
  /** Also the `webhook-id` header: the same on every attempt, so receivers can deduplicate. */
  id: string;
  watchId: string;
  eventType: EventType;
  /** The JSON body, exactly as signed and sent. */
  payload: string;
  status: DeliveryStatus;
  attempts: number;
  nextAttemptAt: number;
  /** After this, a failing delivery is given up and kept as failed. */
  expiresAt: number;
  lastStatus: number | null;
  lastError: string | null;
  createdAt: number;
  deliveredAt: number | null;
};

export type NewDelivery = Pick<Delivery, 'id' | 'watchId' | 'eventType' | 'payload' | 'nextAttemptAt' | 'expiresAt' | 'createdAt'>;

/** What a finished run writes, in one transaction. */
export type RunOutcome = {
  at: number;
  nextRunAt: number;
  /** Present when the run succeeded. */
  snapshot?: Snapshot;
  state?: Record<string, unknown>;
  deliveries: NewDelivery[];
  failures: number;
  lastError: string | null;
  /** Set when this run pauses the watch. */
  pausedReason?: string;
};

export type DeliveryOutcome = {
  status: DeliveryStatus;
  attempts: number;
  nextAttemptAt: number;
  lastStatus: number | null;
  lastError: string | null;
  deliveredAt: number | null;
};

export type WatchSchedule = Pick<Watch, 'id' | 'everyMs' | 'nextRunAt'>;

export type PendingDelivery = Pick<Delivery, 'id' | 'nextAttemptAt'>;

export interface WatchStore {
  insert(watch: NewWatch): Promise<Watch>;
  get(id: string): Promise<Watch | null>;
  listByOwner(owner: string): Promise<Watch[]>;
  countByOwner(owner: string): Promise<number>;
  update(id: string, patch: WatchPatch, now: number): Promise<Watch | null>;
  delete(id: string): Promise<boolean>;
  /** Active watches due at `now` and not leased by another runner, leased until `leaseUntil`. */
  claimDueRuns(now: number, leaseUntil: number, limit: number): Promise<Watch[]>;
  /**
   * Leases one watch's run if it is active, due by `dueBy` and not leased at `now`: a queue that fires
   * a job per run claims it here, so a duplicated job cannot run a watch twice.
   */
  claimRun(id: string, dueBy: number, now: number, leaseUntil: number): Promise<Watch | null>;
  /** Every active watch's id, interval and next run, for keeping a queue's timetable in step. */
  listSchedules(): Promise<WatchSchedule[]>;
  /** Writes a run's snapshot, state and deliveries and releases its lease; false if the watch is gone. */
  completeRun(id: string, outcome: RunOutcome): Promise<boolean>;
  /** Earliest `nextRunAt` of an active watch, for the scheduler's sleep. */
  nextRunAt(): Promise<number | null>;
  history(id: string, fromMs: number, toMs: number, limit: number): Promise<Snapshot[]>;
  /** Pending deliveries due at `now`, leased until `leaseUntil`. */
  claimDueDeliveries(now: number, leaseUntil: number, limit: number): Promise<Delivery[]>;
  /** Leases one pending delivery due at `now` and not leased by another sender. */
  claimDelivery(id: string, now: number, leaseUntil: number): Promise<Delivery | null>;
  /** When a pending delivery can next be claimed (its next attempt, or when its lease lapses); null if not pending. */
  deliveryDueAt(id: string): Promise<number | null>;
  /** Pending deliveries, earliest attempt first, at most `limit`: for re-queueing what a queue lost. */
  listPendingDeliveries(limit: number): Promise<PendingDelivery[]>;
  completeDelivery(id: string, outcome: DeliveryOutcome): Promise<void>;
  nextDeliveryAt(): Promise<number | null>;
  listDeliveries(watchId: string, status: DeliveryStatus | undefined, limit: number): Promise<Delivery[]>;
  getDelivery(watchId: string, id: string): Promise<Delivery | null>;
  /** Puts a delivery back in the queue with a fresh retry window. */
  redeliver(watchId: string, id: string, now: number, expiresAt: number): Promise<Delivery | null>;
  /** Drops snapshots and finished deliveries older than `before`; returns how many rows went. */
  prune(before: number): Promise<number>;
  close(): Promise<void>;
}
