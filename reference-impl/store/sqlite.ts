import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import type { ReservationStatus } from '../../contract/types.ts';
import { decideClaim, type IdempotencyRow } from './claim-decision.ts';
import { normalizeControlState, sharedControlState, takeOneDecline } from './control-state.ts';
import { migrateSqlite } from './migrations.ts';
import { fromStoredText, referenceColumn, storedText } from './stored-text.ts';
import type {
  ClaimIdempotencyKeyInput,
  CompleteReservationInput,
  CompleteReservationResult,
  ControlState,
  IdempotencyClaim,
  StaffAlert,
  Store,
  StoredReservation,
  TransitionOptions,
} from './types.ts';

/** How long a statement waits for another connection's write lock before failing with SQLITE_BUSY. */
const BUSY_TIMEOUT_MS = 5000;

interface ReservationRow {
  reservation_id: string;
  partner_id: string;
  status: string;
  money_attached: number;
  created_at_ms: number;
  document: string;
}

interface IdempotencyDbRow {
  request_hash: string;
  state: 'in_flight' | 'done';
  created_at_ms: number;
  lease_until_ms: number;
  response_status: number | null;
  response_body: string | null;
}

const RESERVATION_COLUMNS = 'reservation_id, partner_id, status, money_attached, created_at_ms, document';

function toStoredReservation(row: ReservationRow): StoredReservation {
  return {
    reservationId: row.reservation_id,
    partnerId: row.partner_id,
    reservation: JSON.parse(row.document),
    moneyAttached: row.money_attached === 1,
    createdAtMs: row.created_at_ms,
  };
}

/** JSON.stringify(undefined) is undefined; store it as JSON null so the column stays valid JSON. */
function toJson(value: unknown): string {
  return JSON.stringify(value) ?? 'null';
}

/**
 * The embedded store: one SQLite file. better-sqlite3 is synchronous, so each method runs its statements to
 * completion before returning and no transaction ever stays open across an await. Every write takes the
 * write lock up front (BEGIN IMMEDIATE), which makes read-decide-write steps atomic against other handles
 * and other processes on the same file.
 */
export class SqliteStore implements Store {
  readonly kind = 'sqlite' as const;
  /** The underlying handle, for diagnostics and tests (pragmas). */
  readonly database: Database.Database;

  constructor(path: string) {
    if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
    const db = new Database(path, { timeout: BUSY_TIMEOUT_MS });
    try {
      // busy_timeout first: switching to WAL needs a lock another process may hold while it starts.
      db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
      db.pragma('journal_mode = WAL');
      // FULL: the WAL is synced on every commit, so an answered 201 survives power loss, not only kill -9.
      db.pragma('synchronous = FULL');
      db.pragma('foreign_keys = ON');
    } catch (err) {
      db.close();
      throw err;
    }
    this.database = db;
  }

  async migrate(): Promise<void> {
    migrateSqlite(this.database);
  }

  async close(): Promise<void> {
    if (this.database.open) {
      this.flush();
      this.database.close();
    }
  }

  private readonly statements = new Map<string, Database.Statement>();

  /** One prepared statement per SQL text for the store's life: preparing costs more than running. */
  private statement(sql: string): Database.Statement {
    let statement = this.statements.get(sql);
    if (!statement) {
      statement = this.database.prepare(sql);
      this.statements.set(sql, statement);
    }
    return statement;
  }

  /** Write transactions waiting for the next group commit. */
  private readonly pending: {
    fn: () => unknown;
    /** Whether an answer rests on this write being on disk (see `immediate`). */
    durable: boolean;
    resolve: (value: unknown) => void;
    reject: (error: unknown) => void;
  }[] = [];
  private flushScheduled = false;
  /** The connection's synchronous level now: FULL unless the last group held only claims. */
  private syncFull = true;

  /**
   * A write transaction, committed together with every other write that arrives in the same turn of the event loop
   * (group commit, for booking throughput: load/README.md "Benchmark"): one IMMEDIATE transaction and one fsync
   * (synchronous = FULL) for the whole group, each write in a savepoint of its own so one failing rolls back alone. The
   * promise settles after the commit: an answer that depends on a write is sent only once that write is on disk.
   *
   * `durable: false` is for a write no answer rests on (an idempotency claim: a claim lost with the power leaves the
   * key free, and the request it guarded was never answered). A group of such writes only commits (synchronous =
   * NORMAL, visible to every connection, no fsync); the next durable group's fsync of the WAL, which is written in
   * order, puts them on disk with it. A booking so pays one fsync, its completion's, not two.
   */
  private immediate<T>(fn: () => T, durable = true): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.pending.push({ fn, durable, resolve: resolve as (value: unknown) => void, reject });
      if (!this.flushScheduled) {
        this.flushScheduled = true;
        setImmediate(() => this.flush());
      }
    });
  }

  private flush(): void {
    this.flushScheduled = false;
    const group = this.pending.splice(0);
    if (group.length === 0) return;
    const outcomes: ({ ok: true; value: unknown } | { ok: false; error: unknown })[] = [];
    try {
      const full = group.some((write) => write.durable);
      if (full !== this.syncFull) {
        this.database.pragma(`synchronous = ${full ? 'FULL' : 'NORMAL'}`);
        this.syncFull = full;
      }
      this.database
        .transaction(() => {
          for (const write of group) {
            try {
              // A nested better-sqlite3 transaction is a savepoint: released on success, rolled back on a throw.
              outcomes.push({ ok: true, value: this.database.transaction(write.fn)() });
            } catch (error) {
              // SQLite may answer a failure of the disk (SQLITE_FULL, SQLITE_IOERR) by rolling back the whole group's
              // transaction, not only this savepoint: then nothing of the group is written, and the writes after this
              // one must not run on in autocommit, committed one by one yet answered as failed. Fail the group.
              if (!this.database.inTransaction) throw error;
              outcomes.push({ ok: false, error });
            }
          }
        })
        .immediate();
    } catch (error) {
      // The group could not start or commit (the lock, the disk): nothing of it was written.
      for (const write of group) write.reject(error);
      return;
    }
    group.forEach((write, i) => {
      const outcome = outcomes[i];
      if (outcome?.ok) write.resolve(outcome.value);
      else write.reject(outcome?.error);
    });
  }

  async getOrCreateSecret(name: string, create: () => string): Promise<string> {
    const select = this.statement('SELECT value FROM secrets WHERE name = ?').pluck();
    const existing = select.get(name) as string | undefined;
    if (existing !== undefined) return existing;
    const candidate = create();
    // Another instance may have inserted meanwhile: keep the first value and read it back.
    this.statement('INSERT INTO secrets (name, value) VALUES (?, ?) ON CONFLICT (name) DO NOTHING').run(
      name,
      candidate,
    );
    return select.get(name) as string;
  }

  async claimIdempotencyKey(input: ClaimIdempotencyKeyInput): Promise<IdempotencyClaim> {
    return this.immediate((): IdempotencyClaim => {
      const found = this.statement(
        `SELECT request_hash, state, created_at_ms, lease_until_ms, response_status, response_body
           FROM idempotency_keys WHERE partner_id = ? AND idempotency_key = ?`,
      ).get(input.partnerId, input.key) as IdempotencyDbRow | undefined;
      const row: IdempotencyRow | null = found
        ? {
            requestHash: found.request_hash,
            state: found.state,
            createdAtMs: found.created_at_ms,
            leaseUntilMs: found.lease_until_ms,
            responseStatus: found.response_status,
            responseBody: found.response_body === null ? null : JSON.parse(found.response_body),
          }
        : null;
      const decision = decideClaim(row, input);
      const leaseUntil = input.nowMs + input.leaseMs;
      switch (decision.action) {
        case 'answer':
          return decision.claim;
        case 'insert':
        case 'reset':
          this.statement(
            `INSERT INTO idempotency_keys
               (partner_id, idempotency_key, request_hash, state, created_at_ms, lease_until_ms, response_status,
                response_body, claim_token)
             VALUES (?, ?, ?, 'in_flight', ?, ?, NULL, NULL, ?)
             ON CONFLICT (partner_id, idempotency_key) DO UPDATE SET
               request_hash = excluded.request_hash, state = 'in_flight', created_at_ms = excluded.created_at_ms,
               lease_until_ms = excluded.lease_until_ms, response_status = NULL, response_body = NULL,
               claim_token = excluded.claim_token`,
          ).run(input.partnerId, input.key, input.requestHash, input.nowMs, leaseUntil, input.claimToken);
          return { kind: 'claimed' };
        case 'takeover':
          this.statement(
            'UPDATE idempotency_keys SET lease_until_ms = ?, claim_token = ? WHERE partner_id = ? AND idempotency_key = ?',
          ).run(leaseUntil, input.claimToken, input.partnerId, input.key);
          return { kind: 'claimed' };
      }
    }, false);
  }

  async releaseIdempotencyKey(partnerId: string, key: string, claimToken: string): Promise<void> {
    await this.immediate(() =>
      this.statement(
        "DELETE FROM idempotency_keys WHERE partner_id = ? AND idempotency_key = ? AND state = 'in_flight' AND claim_token = ?",
      ).run(partnerId, key, claimToken),
    );
  }

  async forgetIdempotencyKeys(createdAtOrBeforeMs: number): Promise<number> {
    return this.immediate(
      () =>
        this.statement("DELETE FROM idempotency_keys WHERE state = 'done' AND created_at_ms <= ?").run(
          createdAtOrBeforeMs,
        ).changes,
    );
  }

  async purgeIdempotencyKeys(createdAtOrBeforeMs: number, batchSize: number): Promise<number> {
    // No DELETE ... LIMIT in SQLite's default build: the batch is chosen by rowid in a subquery (the creation-time
    // index, version 3, finds it). Not durable: a purge lost with the power is simply done again.
    return this.immediate(
      () =>
        this.statement(
          `DELETE FROM idempotency_keys WHERE rowid IN (
             SELECT rowid FROM idempotency_keys WHERE created_at_ms <= ? AND state = 'done' LIMIT ?)`,
        ).run(createdAtOrBeforeMs, Math.max(0, Math.trunc(batchSize))).changes,
      false,
    );
  }

  async completeReservation(input: CompleteReservationInput): Promise<CompleteReservationResult> {
    const stored = input.reservation;
    return this.immediate((): CompleteReservationResult => {
      const holder = this.statement(
        'SELECT state, claim_token FROM idempotency_keys WHERE partner_id = ? AND idempotency_key = ?',
      ).get(input.partnerId, input.key) as { state: string; claim_token: string } | undefined;
      if (holder?.state !== 'in_flight' || holder.claim_token !== input.claimToken) return { kind: 'claim_lost' };
      // The partial unique index is the guard; DO NOTHING turns its conflict into "0 rows" instead of an error.
      // A clash on reservation_id is not caught and throws: that would be a bug in the caller.
      const inserted = this.statement(
        `INSERT INTO reservations
             (reservation_id, partner_id, partner_reference, status, money_attached, created_at_ms, document)
           VALUES (?, ?, ?, ?, ?, ?, ?)
           ON CONFLICT (partner_id, partner_reference) WHERE partner_reference IS NOT NULL DO NOTHING`,
      ).run(
        stored.reservationId,
        stored.partnerId,
        referenceColumn(
          stored.uniqueReference === undefined ? stored.reservation.partnerReference : stored.uniqueReference,
        ),
        stored.reservation.status,
        stored.moneyAttached ? 1 : 0,
        stored.createdAtMs,
        JSON.stringify(stored.reservation),
      );
      if (inserted.changes === 0) return { kind: 'duplicate_partner_reference' };
      this.statement(
        `UPDATE idempotency_keys SET state = 'done', response_status = ?, response_body = ?
         WHERE partner_id = ? AND idempotency_key = ?`,
      ).run(input.responseStatus, toJson(input.responseBody), input.partnerId, input.key);
      return { kind: 'created' };
    });
  }

  async partnerReferenceExists(partnerId: string, partnerReference: string): Promise<boolean> {
    const row = this.statement('SELECT 1 FROM reservations WHERE partner_id = ? AND partner_reference = ?').get(
      partnerId,
      storedText(partnerReference),
    );
    return row !== undefined;
  }

  async getReservation(partnerId: string, reservationId: string): Promise<StoredReservation | null> {
    const row = this.statement(
      `SELECT ${RESERVATION_COLUMNS} FROM reservations WHERE reservation_id = ? AND partner_id = ?`,
    ).get(reservationId, partnerId) as ReservationRow | undefined;
    return row ? toStoredReservation(row) : null;
  }

  async getReservationById(reservationId: string): Promise<StoredReservation | null> {
    const row = this.statement(`SELECT ${RESERVATION_COLUMNS} FROM reservations WHERE reservation_id = ?`).get(
      reservationId,
    ) as ReservationRow | undefined;
    return row ? toStoredReservation(row) : null;
  }

  async listReservations(partnerId: string, limit: number): Promise<StoredReservation[]> {
    const rows = this.statement(
      `SELECT ${RESERVATION_COLUMNS} FROM reservations WHERE partner_id = ?
         ORDER BY created_at_ms DESC, seq DESC LIMIT ?`,
    ).all(partnerId, Math.max(0, Math.trunc(limit))) as ReservationRow[];
    return rows.map(toStoredReservation);
  }

  async transitionReservation(
    reservationId: string,
    from: readonly ReservationStatus[],
    to: ReservationStatus,
    options: TransitionOptions = {},
  ): Promise<{ changed: boolean; reservation: StoredReservation } | null> {
    return this.immediate(() => {
      const row = this.statement(`SELECT ${RESERVATION_COLUMNS} FROM reservations WHERE reservation_id = ?`).get(
        reservationId,
      ) as ReservationRow | undefined;
      if (!row) return null;
      const current = toStoredReservation(row);
      if (!from.includes(current.reservation.status) || (options.onlyWithoutMoney && current.moneyAttached)) {
        return { changed: false, reservation: current };
      }
      const next: StoredReservation = { ...current, reservation: { ...current.reservation, status: to } };
      this.statement('UPDATE reservations SET status = ?, document = ? WHERE reservation_id = ?').run(
        to,
        JSON.stringify(next.reservation),
        reservationId,
      );
      return { changed: true, reservation: next };
    });
  }

  async setMoneyAttached(reservationId: string, attached: boolean): Promise<boolean> {
    const result = await this.immediate(() =>
      this.statement('UPDATE reservations SET money_attached = ? WHERE reservation_id = ?').run(
        attached ? 1 : 0,
        reservationId,
      ),
    );
    return result.changes > 0;
  }

  async recordStaffAlert(alert: StaffAlert): Promise<void> {
    await this.immediate(() =>
      this.statement(
        `INSERT INTO staff_alerts (alert_id, kind, reservation_id, partner_id, reason, created_at_ms)
           VALUES (?, ?, ?, ?, ?, ?)`,
      ).run(
        alert.alertId,
        alert.kind,
        alert.reservationId,
        alert.partnerId,
        storedText(alert.reason),
        alert.createdAtMs,
      ),
    );
  }

  async listStaffAlerts(): Promise<StaffAlert[]> {
    const rows = this.statement(
      `SELECT alert_id, kind, reservation_id, partner_id, reason, created_at_ms FROM staff_alerts
         ORDER BY created_at_ms, seq`,
    ).all() as {
      alert_id: string;
      kind: StaffAlert['kind'];
      reservation_id: string;
      partner_id: string;
      reason: string;
      created_at_ms: number;
    }[];
    return rows.map((r) => ({
      alertId: r.alert_id,
      kind: r.kind,
      reservationId: r.reservation_id,
      partnerId: r.partner_id,
      reason: fromStoredText(r.reason),
      createdAtMs: r.created_at_ms,
    }));
  }

  /**
   * Every request reads the control state; it changes a few times a run. Kept until this connection writes it or
   * PRAGMA data_version says another connection committed something (no table touched, but a read transaction's
   * WAL and file locks: about a tenth of a GET /locations' CPU when run for each request).
   */
  private controlCache: { version: number; state: ControlState } | undefined;
  private dataVersion: Database.Statement | undefined;
  /** The control read of this turn of the event loop, shared by every call made before it runs. */
  private controlReadThisTurn: Promise<ControlState> | undefined;

  /**
   * Calls made in one turn of the event loop share one read, made at the turn's end (setImmediate: after the poll
   * phase that read their requests): it runs after every call that shares it, so none is answered from a state older
   * than its call, the guarantee a read per call gives (another process's commit before a call is seen by it).
   */
  getControlState(): Promise<ControlState> {
    this.controlReadThisTurn ??= new Promise<ControlState>((resolve, reject) => {
      setImmediate(() => {
        this.controlReadThisTurn = undefined;
        try {
          resolve(this.readControlState());
        } catch (error) {
          reject(error);
        }
      });
    });
    return this.controlReadThisTurn;
  }

  private readControlState(): ControlState {
    this.dataVersion ??= this.database.prepare('PRAGMA data_version').pluck();
    const version = this.dataVersion.get() as number;
    if (this.controlCache?.version === version) return this.controlCache.state;
    const json = this.statement('SELECT state FROM control_state WHERE id = 1').pluck().get() as string | undefined;
    // Shared by every request until it changes: frozen, so a reader can never change it for the others.
    const state = sharedControlState(json === undefined ? {} : JSON.parse(json));
    this.controlCache = { version, state };
    return state;
  }

  /**
   * Read, change and write the single control row under the write lock. `durable: false` for the operator's own
   * changes (the clock, the switches): test-hook state, on disk with the next durable group's fsync and safe from a
   * crash of the process at once (a commit is in the WAL), so a clock advance does not stall the event loop for an fsync.
   */
  private modifyControl<T>(
    change: (state: ControlState) => { state: ControlState; result: T },
    durable = true,
  ): Promise<T> {
    return this.immediate(() => {
      // Dropped when the write runs: a read queued before it must not keep the old state (our own commits do not
      // move data_version).
      this.controlCache = undefined;
      const json = this.statement('SELECT state FROM control_state WHERE id = 1').pluck().get() as string | undefined;
      const { state, result } = change(normalizeControlState(json === undefined ? {} : JSON.parse(json)));
      this.statement(
        'INSERT INTO control_state (id, state) VALUES (1, ?) ON CONFLICT (id) DO UPDATE SET state = excluded.state',
      ).run(JSON.stringify(normalizeControlState(state)));
      return result;
    }, durable);
  }

  async updateControlState(update: (state: ControlState) => ControlState): Promise<ControlState> {
    return this.modifyControl((current) => {
      const state = normalizeControlState(update(current));
      return { state, result: state };
    }, false);
  }

  async takeDeclineNextBooking(): Promise<boolean> {
    return this.modifyControl((current) => {
      const { state, taken } = takeOneDecline(current);
      return { state, result: taken };
    });
  }
}
