// The watch store over SQL: one set of queries for node:sqlite (embedded) and PostgreSQL (scale-out),
// on the tables of migration 3. Runs and deliveries are claimed with a lease, so a runner that dies
// mid-run loses nothing: its lease lapses and the work is claimed again.
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { DatabaseSync, type SQLInputValue } from 'node:sqlite';
import pg from 'pg';
import type {
  Delivery, DeliveryOutcome, DeliveryStatus, EventType, NewDelivery, NewWatch, PendingDelivery, RunOutcome, Snapshot, Watch, WatchKind,
  WatchPatch, WatchSchedule, WatchStatus, WatchStore,
} from './types.ts';

type Row = Record<string, unknown>;
type Param = string | number | null;

type Statement = { text: string; params: Param[] };

/** `?` placeholders on both; the PostgreSQL adapter numbers them. */
type Sql = {
  all(text: string, params?: Param[]): Promise<Row[]>;
  run(text: string, params?: Param[]): Promise<number>;
  /**
   * Runs the statements in one transaction and returns each one's changed-row count. No caller code
   * runs inside it: node:sqlite blocks the thread while it waits for a lock, so a transaction that
   * awaited between statements could wait on a writer it is itself holding up.
   */
  batch(statements: Statement[]): Promise<number[]>;
  /** PostgreSQL locks claimed rows and skips rows another node holds; SQLite serialises writers. */
  skipLocked: string;
  close(): Promise<void>;
};

const num = (v: unknown): number => Number(v);
const numOrNull = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));
const strOrNull = (v: unknown): string | null => (v === null || v === undefined ? null : String(v));

function toWatch(row: Row): Watch {
  return {
    id: String(row.id),
    owner: String(row.owner),
    kind: String(row.kind) as WatchKind,
    target: String(row.target),
    everyMs: num(row.every_ms),
    webhookUrl: strOrNull(row.webhook_url),
    webhookSecret: strOrNull(row.webhook_secret),
    events: JSON.parse(String(row.events)) as EventType[],
    status: String(row.status) as WatchStatus,
    pausedReason: strOrNull(row.paused_reason),
    failures: num(row.failures),
    lastError: strOrNull(row.last_error),
    nextRunAt: num(row.next_run_at),
    lastRunAt: numOrNull(row.last_run_at),
    state: row.state === null || row.state === undefined ? null : (JSON.parse(String(row.state)) as Record<string, unknown>),
    createdAt: num(row.created_at),
    updatedAt: num(row.updated_at),
  };
}

function toDelivery(row: Row): Delivery {
  return {
    id: String(row.id),
    watchId: String(row.watch_id),
    eventType: String(row.event_type) as EventType,
    payload: String(row.payload),
    status: String(row.status) as DeliveryStatus,
    attempts: num(row.attempts),
    nextAttemptAt: num(row.next_attempt_at),
    expiresAt: num(row.expires_at),
    lastStatus: numOrNull(row.last_status),
    lastError: strOrNull(row.last_error),
    createdAt: num(row.created_at),
    deliveredAt: numOrNull(row.delivered_at),
  };
}

const PATCH_COLUMNS: Record<keyof WatchPatch, string> = {
  everyMs: 'every_ms', webhookUrl: 'webhook_url', webhookSecret: 'webhook_secret', events: 'events', status: 'status',
  pausedReason: 'paused_reason', failures: 'failures', nextRunAt: 'next_run_at',
};

function createWatchStoreOn(sql: Sql): WatchStore {
  const one = async (text: string, params: Param[]) => (await sql.all(text, params))[0] ?? null;
  return {
    async insert(w: NewWatch) {
      await sql.run(
        `INSERT INTO watches (id, owner, kind, target, every_ms, webhook_url, webhook_secret, events, status, failures,
           next_run_at, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'active', 0, ?, ?, ?)`,
        [w.id, w.owner, w.kind, w.target, w.everyMs, w.webhookUrl, w.webhookSecret, JSON.stringify(w.events), w.nextRunAt, w.createdAt, w.createdAt],
      );
      return toWatch((await one('SELECT * FROM watches WHERE id = ?', [w.id]))!);
    },
    async get(id) {
      const row = await one('SELECT * FROM watches WHERE id = ?', [id]);
      return row && toWatch(row);
    },
    async listByOwner(owner) {
      return (await sql.all('SELECT * FROM watches WHERE owner = ? ORDER BY created_at, id', [owner])).map(toWatch);
    },
    async countByOwner(owner) {
      return num((await one('SELECT COUNT(*) AS n FROM watches WHERE owner = ?', [owner]))?.n ?? 0);
    },
    async update(id, patch, now) {
      const sets: string[] = [];
      const params: Param[] = [];
      for (const [key, column] of Object.entries(PATCH_COLUMNS) as [keyof WatchPatch, string][]) {
        if (!(key in patch)) continue;
        const value = patch[key];
        sets.push(`${column} = ?`);
        params.push(key === 'events' ? JSON.stringify(value) : (value as Param));
      }
      sets.push('updated_at = ?');
      params.push(now, id);
      if ((await sql.run(`UPDATE watches SET ${sets.join(', ')} WHERE id = ?`, params)) === 0) return null;
      return this.get(id);
    },
    async delete(id) {
      // Deleted explicitly: SQLite enforces ON DELETE CASCADE only with foreign keys on.
      const changes = await sql.batch([
        { text: 'DELETE FROM watch_snapshots WHERE watch_id = ?', params: [id] },
        { text: 'DELETE FROM watch_deliveries WHERE watch_id = ?', params: [id] },
        { text: 'DELETE FROM watches WHERE id = ?', params: [id] },
      ]);
      return changes[2] > 0;
    },
    async claimDueRuns(now, leaseUntil, limit) {
      // One statement claims: atomic on both backends, and on PostgreSQL rows another node holds are skipped.
      const rows = await sql.all(
        `UPDATE watches SET lease_until = ? WHERE id IN (SELECT id FROM watches WHERE status = 'active' AND next_run_at <= ?
           AND (lease_until IS NULL OR lease_until < ?) ORDER BY next_run_at LIMIT ? ${sql.skipLocked}) RETURNING *`,
        [leaseUntil, now, now, limit],
      );
      return rows.map(toWatch).sort((a, b) => a.nextRunAt - b.nextRunAt);
    },
    async claimRun(id, dueBy, now, leaseUntil) {
      const row = await one(
        `UPDATE watches SET lease_until = ? WHERE id = ? AND status = 'active' AND next_run_at <= ?
           AND (lease_until IS NULL OR lease_until < ?) RETURNING *`,
        [leaseUntil, id, dueBy, now],
      );
      return row && toWatch(row);
    },
    async listSchedules() {
      const rows = await sql.all("SELECT id, every_ms, next_run_at FROM watches WHERE status = 'active' ORDER BY id", []);
      return rows.map((r): WatchSchedule => ({ id: String(r.id), everyMs: num(r.every_ms), nextRunAt: num(r.next_run_at) }));
    },
    async completeRun(id, o: RunOutcome) {
      const paused = o.pausedReason !== undefined;
      // The inserts are guarded by the watch still existing, so a watch deleted mid-run leaves nothing behind.
      const exists = 'SELECT 1 FROM watches WHERE id = ?';
      const statements: Statement[] = [
        {
          text: `UPDATE watches SET lease_until = NULL, last_run_at = ?, next_run_at = ?, failures = ?, last_error = ?,
                   state = COALESCE(?, state), status = CASE WHEN ? = 1 THEN 'paused' ELSE status END,
                   paused_reason = CASE WHEN ? = 1 THEN ? ELSE paused_reason END WHERE id = ?`,
          params: [o.at, o.nextRunAt, o.failures, o.lastError, o.state ? JSON.stringify(o.state) : null, paused ? 1 : 0, paused ? 1 : 0, o.pausedReason ?? null, id],
        },
      ];
      if (o.snapshot) {
        statements.push({
          text: `INSERT INTO watch_snapshots (watch_id, at, metrics) SELECT ?, ?, ? WHERE EXISTS (${exists}) ON CONFLICT (watch_id, at) DO NOTHING`,
          params: [id, o.snapshot.at, JSON.stringify(o.snapshot.metrics), id],
        });
      }
      for (const d of o.deliveries) {
        statements.push({
          text: `INSERT INTO watch_deliveries (id, watch_id, event_type, payload, status, attempts, next_attempt_at, expires_at, created_at)
                 SELECT ?, ?, ?, ?, 'pending', 0, ?, ?, ? WHERE EXISTS (${exists})`,
          params: [d.id, d.watchId, d.eventType, d.payload, d.nextAttemptAt, d.expiresAt, d.createdAt, id],
        });
      }
      return (await sql.batch(statements))[0] > 0;
    },
    async nextRunAt() {
      return numOrNull((await one("SELECT MIN(CASE WHEN lease_until > next_run_at THEN lease_until ELSE next_run_at END) AS t FROM watches WHERE status = 'active'", []))?.t);
    },
    async history(id, fromMs, toMs, limit) {
      const rows = await sql.all('SELECT at, metrics FROM watch_snapshots WHERE watch_id = ? AND at >= ? AND at <= ? ORDER BY at LIMIT ?', [id, fromMs, toMs, limit]);
      return rows.map((r): Snapshot => ({ at: num(r.at), metrics: JSON.parse(String(r.metrics)) as Snapshot['metrics'] }));
    },
    async claimDueDeliveries(now, leaseUntil, limit) {
      const rows = await sql.all(
        `UPDATE watch_deliveries SET lease_until = ? WHERE id IN (SELECT id FROM watch_deliveries WHERE status = 'pending'
           AND next_attempt_at <= ? AND (lease_until IS NULL OR lease_until < ?) ORDER BY next_attempt_at LIMIT ? ${sql.skipLocked}) RETURNING *`,
        [leaseUntil, now, now, limit],
      );
      return rows.map(toDelivery).sort((a, b) => a.nextAttemptAt - b.nextAttemptAt);
    },
    async claimDelivery(id, now, leaseUntil) {
      const row = await one(
        `UPDATE watch_deliveries SET lease_until = ? WHERE id = ? AND status = 'pending' AND next_attempt_at <= ?
           AND (lease_until IS NULL OR lease_until < ?) RETURNING *`,
        [leaseUntil, id, now, now],
      );
      return row && toDelivery(row);
    },
    async deliveryDueAt(id) {
      const row = await one(
        "SELECT CASE WHEN lease_until > next_attempt_at THEN lease_until ELSE next_attempt_at END AS t FROM watch_deliveries WHERE id = ? AND status = 'pending'",
        [id],
      );
      return row && num(row.t);
    },
    async listPendingDeliveries(limit) {
      const rows = await sql.all("SELECT id, next_attempt_at FROM watch_deliveries WHERE status = 'pending' ORDER BY next_attempt_at, id LIMIT ?", [limit]);
      return rows.map((r): PendingDelivery => ({ id: String(r.id), nextAttemptAt: num(r.next_attempt_at) }));
    },
    async completeDelivery(id, o: DeliveryOutcome) {
      await sql.run(
        `UPDATE watch_deliveries SET lease_until = NULL, status = ?, attempts = ?, next_attempt_at = ?, last_status = ?, last_error = ?,
           delivered_at = ? WHERE id = ?`,
        [o.status, o.attempts, o.nextAttemptAt, o.lastStatus, o.lastError, o.deliveredAt, id],
      );
    },
    async nextDeliveryAt() {
      return numOrNull((await one("SELECT MIN(CASE WHEN lease_until > next_attempt_at THEN lease_until ELSE next_attempt_at END) AS t FROM watch_deliveries WHERE status = 'pending'", []))?.t);
    },
    async listDeliveries(watchId, status, limit) {
      const rows = status
        ? await sql.all('SELECT * FROM watch_deliveries WHERE watch_id = ? AND status = ? ORDER BY created_at DESC, id LIMIT ?', [watchId, status, limit])
        : await sql.all('SELECT * FROM watch_deliveries WHERE watch_id = ? ORDER BY created_at DESC, id LIMIT ?', [watchId, limit]);
      return rows.map(toDelivery);
    },
    async getDelivery(watchId, id) {
      const row = await one('SELECT * FROM watch_deliveries WHERE watch_id = ? AND id = ?', [watchId, id]);
      return row && toDelivery(row);
    },
    async redeliver(watchId, id, now, expiresAt) {
      const changed = await sql.run(
        `UPDATE watch_deliveries SET status = 'pending', next_attempt_at = ?, expires_at = ?, lease_until = NULL
         WHERE watch_id = ? AND id = ? AND status <> 'pending'`,
        [now, expiresAt, watchId, id],
      );
      return changed === 0 ? null : this.getDelivery(watchId, id);
    },
    async prune(before) {
      const snapshots = await sql.run('DELETE FROM watch_snapshots WHERE at < ?', [before]);
      const deliveries = await sql.run("DELETE FROM watch_deliveries WHERE status <> 'pending' AND created_at < ?", [before]);
      return snapshots + deliveries;
    },
    close: () => sql.close(),
  };
}

/** The embedded store: its own connection to the service's SQLite file (WAL lets both work at once). */
function sqliteSql(path: string): Sql {
  const db = new DatabaseSync(path, { timeout: 5000 });
  if (path !== ':memory:') db.exec('PRAGMA journal_mode = WAL');
  const statements = new Map<string, ReturnType<DatabaseSync['prepare']>>();
  const prepared = (text: string) => {
    let s = statements.get(text);
    if (!s) statements.set(text, (s = db.prepare(text)));
    return s;
  };
  const changes = (text: string, params: Param[]) => Number(prepared(text).run(...(params as SQLInputValue[])).changes);
  return {
    all: async (text, params = []) => prepared(text).all(...(params as SQLInputValue[])) as Row[],
    run: async (text, params = []) => changes(text, params),
    async batch(list) {
      db.exec('BEGIN IMMEDIATE');
      try {
        const counts = list.map((s) => changes(s.text, s.params));
        db.exec('COMMIT');
        return counts;
      } catch (error) {
        if (db.isTransaction) db.exec('ROLLBACK');
        throw error;
      }
    },
    skipLocked: '',
    close: async () => db.close(),
  };
}

function numbered(text: string): string {
  let n = 0;
  return text.replace(/\?/g, () => `$${++n}`);
}

function postgresSql(connectionString: string, onError: (error: Error) => void): Sql {
  const pool = new pg.Pool({ connectionString, max: 4, connectionTimeoutMillis: 5000 });
  pool.on('error', onError);
  const on = (db: pg.Pool | pg.PoolClient) => ({
    all: async (text: string, params: Param[] = []) => (await db.query(numbered(text), params)).rows as Row[],
    run: async (text: string, params: Param[] = []) => (await db.query(numbered(text), params)).rowCount ?? 0,
  });
  return {
    ...on(pool),
    async batch(list) {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        const counts: number[] = [];
        for (const s of list) counts.push((await client.query(numbered(s.text), s.params)).rowCount ?? 0);
        await client.query('COMMIT');
        return counts;
      } catch (error) {
        await client.query('ROLLBACK').catch(() => {});
        throw error;
      } finally {
        client.release();
      }
    },
    skipLocked: 'FOR UPDATE SKIP LOCKED',
    close: () => pool.end(),
  };
}

export type OpenWatchStoreOptions = { databaseUrl?: string; dataDir: string; onError?: (error: Error) => void };

/** The watch store beside the service's Store: PostgreSQL when configured, else `reelay.db` in the data directory. */
export async function openWatchStore(options: OpenWatchStoreOptions): Promise<WatchStore> {
  if (options.databaseUrl) return createWatchStoreOn(postgresSql(options.databaseUrl, options.onError ?? (() => {})));
  await mkdir(options.dataDir, { recursive: true });
  return createWatchStoreOn(sqliteSql(join(options.dataDir, 'reelay.db')));
}

export function createSqliteWatchStore(path: string): WatchStore {
  return createWatchStoreOn(sqliteSql(path));
}
