import { performance } from 'node:perf_hooks';
import { setTimeout as delay } from 'node:timers/promises';
import pg from 'pg';
import type { ReservationStatus } from '../../contract/types.ts';
import { decideClaim, type IdempotencyRow } from './claim-decision.ts';
import { normalizeControlState, sharedControlState, takeOneDecline } from './control-state.ts';
import { migratePostgres } from './migrations.ts';
import { closeFully } from './pg-pool-end.ts';
import {
  CONTROL_CHANNEL,
  ControlWatch,
  type ControlWatchTiming,
  DEFAULT_WATCH_TIMING,
} from './postgres-control-watch.ts';
import { fromStoredText, referenceColumn, storedText } from './stored-text.ts';
import { TurnBatch } from './turn-batch.ts';
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

type Queryable = Pick<pg.PoolClient, 'query'>;

/** serialization_failure and deadlock_detected: the whole transaction may simply be run again. */
const RETRYABLE_SQLSTATES = new Set(['40001', '40P01']);
const MAX_ATTEMPTS = 5;

/**
 * Bookings per batched statement, and batched statements of a kind running at once: one, so the claims (or the
 * completions) that arrive while one batch commits all go in the next (bench, 16 connections: 1,180 to 1,850
 * bookings a second against 740 to 1,430 with a batch per turn of the event loop, on the same machine).
 */
const BATCH_ITEMS = 100;
const BATCHES_RUNNING = 1;

/** Thrown inside a transaction to run it again (a row vanished between two statements). */
class RetryTransaction extends Error {}

interface ReservationRow {
  reservation_id: string;
  partner_id: string;
  status: string;
  money_attached: boolean;
  created_at_ms: string;
  document: StoredReservation['reservation'];
}

const RESERVATION_COLUMNS = 'reservation_id, partner_id, status, money_attached, created_at_ms, document';

// node-postgres returns BIGINT as a string (it may exceed 2^53); epoch milliseconds never do.
function toStoredReservation(row: ReservationRow): StoredReservation {
  return {
    reservationId: row.reservation_id,
    partnerId: row.partner_id,
    reservation: row.document,
    moneyAttached: row.money_attached,
    createdAtMs: Number(row.created_at_ms),
  };
}

function toJson(value: unknown): string {
  return JSON.stringify(value) ?? 'null';
}

function sqlState(err: unknown): string | undefined {
  return typeof err === 'object' && err !== null && 'code' in err && typeof err.code === 'string'
    ? err.code
    : undefined;
}

/** A statement with a name: node-postgres prepares it once per connection, and the server does not plan it again. */
interface NamedQuery {
  name: string;
  text: string;
}

const CLAIM_NEW_KEY: NamedQuery = {
  name: 'claim_new_key',
  text: `INSERT INTO idempotency_keys
           (partner_id, idempotency_key, request_hash, state, created_at_ms, lease_until_ms, claim_token)
         VALUES ($1, $2, $3, 'in_flight', $4, $5, $6)
         ON CONFLICT (partner_id, idempotency_key) DO NOTHING`,
};

/**
 * The new-key claims of one turn of the event loop as one statement (TurnBatch), each key once: each row that went in
 * returns its key; a key already present (DO NOTHING) returns nothing and its claim takes the slow path.
 */
const CLAIM_NEW_KEYS: NamedQuery = {
  name: 'claim_new_keys',
  text: `INSERT INTO idempotency_keys
           (partner_id, idempotency_key, request_hash, state, created_at_ms, lease_until_ms, claim_token)
         SELECT p, k, h, 'in_flight', c, l, t
         FROM unnest($1::text[], $2::text[], $3::text[], $4::bigint[], $5::bigint[], $6::text[]) AS i(p, k, h, c, l, t)
         ON CONFLICT (partner_id, idempotency_key) DO NOTHING
         RETURNING partner_id, idempotency_key`,
};

/**
 * The completions of one turn of the event loop in one call of complete_reservations (migration 4), so one implicit
 * transaction: atomic and committed before any of them is answered, with no BEGIN/COMMIT round trips, one WAL flush
 * for all. One row per booking, in order: whether its key was held (still in flight under its claim token), whether
 * its reservation went in (not when its reference was taken, by another transaction or an earlier booking of the
 * batch), whether its key was marked done. A clash on reservation_id still raises: that would be a bug in the caller.
 */
const COMPLETE_RESERVATIONS: NamedQuery = {
  name: 'complete_reservations',
  text: `SELECT held, created, completed FROM complete_reservations($1::text[], $2::text[], $3::text[], $4::text[],
           $5::text[], $6::text[], $7::boolean[], $8::bigint[], $9::json[], $10::integer[], $11::json[])`,
};

const REFERENCE_EXISTS: NamedQuery = {
  name: 'reference_exists',
  text: 'SELECT 1 FROM reservations WHERE partner_id = $1 AND partner_reference = $2',
};

const READ_CONTROL_STATE: NamedQuery = {
  name: 'read_control_state',
  text: 'SELECT state::text AS state FROM control_state WHERE id = 1',
};

/** A change of the control row: its new version, announced to every instance when the transaction commits. */
const WRITE_CONTROL_STATE = `
  WITH changed AS (UPDATE control_state SET state = $1, version = version + 1 WHERE id = 1 RETURNING version)
  SELECT version, pg_notify('${CONTROL_CHANNEL}', version::text) FROM changed`;

/**
 * Recreates the control row should it ever be missing, so there is always a row to lock; its version continues
 * from the highest any instance has seen, so a lease can never be granted on an older copy with the same number.
 */
const ENSURE_CONTROL_ROW = `
  INSERT INTO control_state (id, state, version)
  VALUES (1, $1, (SELECT COALESCE(max(seen_version), 0) FROM control_listeners))
  ON CONFLICT (id) DO NOTHING`;

/** Leases still running on a copy older than a change: the writer waits until there are none (ControlWatch). */
const LEASES_BEHIND: NamedQuery = {
  name: 'control_leases_behind',
  text: 'SELECT count(*)::int AS behind FROM control_listeners WHERE seen_version < $1 AND lease_until > clock_timestamp()',
};

/**
 * The scale-out store: any number of instances share one PostgreSQL database. Every cross-instance rule is
 * held by the database: row locks (SELECT ... FOR UPDATE) around read-decide-write steps, ON CONFLICT for
 * inserts that may race, the partial unique index for partnerReference. READ COMMITTED is enough for all of
 * them; retries cover deadlocks should one ever occur.
 */
export class PostgresStore implements Store {
  readonly kind = 'postgres' as const;
  private readonly pool: pg.Pool;
  private readonly endPool: () => Promise<void>;
  private readonly watch: ControlWatch;
  private closed = false;

  constructor(
    connectionString: string,
    poolOptions: Omit<pg.PoolConfig, 'connectionString'> = {},
    private readonly watchTiming: Readonly<ControlWatchTiming> = DEFAULT_WATCH_TIMING,
  ) {
    // A PostgreSQL that goes silent (partition, frozen process) must not hold requests open: a connection attempt
    // or a query that gets no answer fails, and the request is answered 503 DEPENDENCY_UNAVAILABLE.
    this.pool = new pg.Pool({
      connectionTimeoutMillis: 5_000,
      query_timeout: 10_000,
      ...poolOptions,
      connectionString,
    });
    // An idle client can lose its connection (server restart, terminated backend): the pool drops it and the next
    // query reconnects. A client checked out when its connection dies fails its query (answered
    // DEPENDENCY_UNAVAILABLE). closeFully listens for both, so neither event crashes the process, and makes
    // close() wait until every connection is closed.
    this.endPool = closeFully(this.pool);
    this.watch = new ControlWatch(
      { connectionString, connectionTimeoutMillis: poolOptions.connectionTimeoutMillis ?? 5_000 },
      (text) => this.controlFromText(text),
      watchTiming,
    );
  }

  /** Brings the schema up to date, then starts watching the control state (it needs migration 5's tables). */
  async migrate(): Promise<void> {
    await migratePostgres(this.pool);
    if (!this.closed) this.watch.start();
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.watch.stop();
    await this.endPool();
  }

  private async transaction<T>(fn: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      const client = await this.pool.connect();
      let broken: Error | undefined;
      try {
        await client.query('BEGIN');
        const result = await fn(client);
        await client.query('COMMIT');
        return result;
      } catch (err) {
        await client.query('ROLLBACK').catch((rollbackError: Error) => {
          broken = rollbackError;
        });
        const retryable = err instanceof RetryTransaction || RETRYABLE_SQLSTATES.has(sqlState(err) ?? '');
        if (!retryable || attempt >= MAX_ATTEMPTS) throw err;
      } finally {
        // Passing an error destroys the client instead of returning a connection in an unknown state.
        client.release(broken);
      }
    }
  }

  /**
   * One statement on its own (autocommit: PostgreSQL runs it as a transaction of its own, committed before the
   * answer arrives), run again on a deadlock like a transaction would be. Named, so each connection plans it once.
   */
  private async statement<R extends pg.QueryResultRow>(
    query: NamedQuery,
    values: unknown[],
  ): Promise<pg.QueryResult<R>> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.pool.query<R>({ ...query, values });
      } catch (err) {
        if (!RETRYABLE_SQLSTATES.has(sqlState(err) ?? '') || attempt >= MAX_ATTEMPTS) throw err;
      }
    }
  }

  async getOrCreateSecret(name: string, create: () => string): Promise<string> {
    const select = async (): Promise<string | undefined> =>
      (await this.pool.query<{ value: string }>('SELECT value FROM secrets WHERE name = $1', [name])).rows[0]?.value;
    const existing = await select();
    if (existing !== undefined) return existing;
    // Two instances starting together may both get here; the first insert wins and both read it back.
    await this.pool.query('INSERT INTO secrets (name, value) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING', [
      name,
      create(),
    ]);
    const value = await select();
    if (value === undefined) throw new Error(`secret "${name}" vanished right after it was created`);
    return value;
  }

  async claimIdempotencyKey(claim: ClaimIdempotencyKeyInput): Promise<IdempotencyClaim> {
    const input = { ...claim, key: storedText(claim.key) };
    const leaseUntil = input.nowMs + input.leaseMs;
    const values = [input.partnerId, input.key, input.requestHash, input.nowMs, leaseUntil, input.claimToken];
    // Fast path for a new key: the insert alone is atomic, so it needs no BEGIN/COMMIT of its own, and it shares its
    // statement with the other new-key claims of this turn. A key already present is decided below under the row lock.
    if (await this.newKeyClaims.add(input)) return { kind: 'claimed' };
    return this.transaction(async (client): Promise<IdempotencyClaim> => {
      // If another transaction is inserting the same key, this waits for it to finish and then does nothing, so
      // the row read below is the committed winner. (Tried again here: the row may have gone since the fast path.)
      const inserted = await client.query({ ...CLAIM_NEW_KEY, values });
      if (inserted.rowCount === 1) return { kind: 'claimed' };

      const { rows } = await client.query<{
        request_hash: string;
        state: 'in_flight' | 'done';
        created_at_ms: string;
        lease_until_ms: string;
        response_status: number | null;
        response_body: unknown;
      }>(
        `SELECT request_hash, state, created_at_ms, lease_until_ms, response_status, response_body
         FROM idempotency_keys WHERE partner_id = $1 AND idempotency_key = $2 FOR UPDATE`,
        [input.partnerId, input.key],
      );
      const found = rows[0];
      // Released between the two statements: start again, the insert will now succeed or meet a newer row.
      if (!found) throw new RetryTransaction('idempotency row vanished');
      const row: IdempotencyRow = {
        requestHash: found.request_hash,
        state: found.state,
        createdAtMs: Number(found.created_at_ms),
        leaseUntilMs: Number(found.lease_until_ms),
        responseStatus: found.response_status,
        responseBody: found.response_body,
      };
      const decision = decideClaim(row, input);
      switch (decision.action) {
        case 'answer':
          return decision.claim;
        case 'insert':
        case 'reset':
          await client.query(
            `UPDATE idempotency_keys SET request_hash = $3, state = 'in_flight', created_at_ms = $4,
               lease_until_ms = $5, response_status = NULL, response_body = NULL, claim_token = $6
             WHERE partner_id = $1 AND idempotency_key = $2`,
            [input.partnerId, input.key, input.requestHash, input.nowMs, leaseUntil, input.claimToken],
          );
          return { kind: 'claimed' };
        case 'takeover':
          await client.query(
            'UPDATE idempotency_keys SET lease_until_ms = $3, claim_token = $4 WHERE partner_id = $1 AND idempotency_key = $2',
            [input.partnerId, input.key, leaseUntil, input.claimToken],
          );
          return { kind: 'claimed' };
      }
    });
  }

  async releaseIdempotencyKey(partnerId: string, key: string, claimToken: string): Promise<void> {
    await this.pool.query(
      "DELETE FROM idempotency_keys WHERE partner_id = $1 AND idempotency_key = $2 AND state = 'in_flight' AND claim_token = $3",
      [partnerId, storedText(key), claimToken],
    );
  }

  async forgetIdempotencyKeys(createdAtOrBeforeMs: number): Promise<number> {
    const result = await this.pool.query("DELETE FROM idempotency_keys WHERE state = 'done' AND created_at_ms <= $1", [
      createdAtOrBeforeMs,
    ]);
    return result.rowCount ?? 0;
  }

  async purgeIdempotencyKeys(createdAtOrBeforeMs: number, batchSize: number): Promise<number> {
    // No DELETE ... LIMIT: the batch's row addresses (ctid) are taken first, through the creation-time index
    // (version 3), by ARRAY(subquery), which runs once. A plain IN subquery may be run again per row, each run
    // locking a new batch (7 rows deleted at LIMIT 3 in the contract test); a join on the primary key may hash the
    // whole range of old rows for every batch. The rows are locked as they are chosen, so their ctid cannot move
    // before the delete; SKIP LOCKED passes over rows a request holds (a claim deciding on an old key), so the purge
    // never waits for requests, and the conditions are checked on each row as locked.
    const result = await this.pool.query(
      `DELETE FROM idempotency_keys
       WHERE ctid = ANY(ARRAY(
           SELECT ctid FROM idempotency_keys
           WHERE created_at_ms <= $1 AND state = 'done'
           LIMIT $2 FOR UPDATE SKIP LOCKED))
         AND created_at_ms <= $1 AND state = 'done'`,
      [createdAtOrBeforeMs, Math.max(0, Math.trunc(batchSize))],
    );
    return result.rowCount ?? 0;
  }

  async completeReservation(input: CompleteReservationInput): Promise<CompleteReservationResult> {
    const outcome = await this.completions.add(input);
    if (!outcome.held) return { kind: 'claim_lost' };
    if (!outcome.created) return { kind: 'duplicate_partner_reference' };
    // The key row was locked by this very statement: its update cannot miss.
    if (!outcome.completed) throw new Error('reservation stored but its idempotency key was not completed');
    return { kind: 'created' };
  }

  /**
   * Group commit of new-key claims (CLAIM_NEW_KEYS): whether each claim's row went in. A key claimed twice in one
   * batch is sent once, for its first claim; the others take the slow path, which finds that claim's row.
   */
  private readonly newKeyClaims = new TurnBatch<ClaimIdempotencyKeyInput, boolean>(
    async (claims) => {
      const slot = (claim: ClaimIdempotencyKeyInput) => JSON.stringify([claim.partnerId, claim.key]);
      const first = new Map<string, number>();
      claims.forEach((claim, i) => {
        if (!first.has(slot(claim))) first.set(slot(claim), i);
      });
      const sent = [...first.values()].map((i) => claims[i] as ClaimIdempotencyKeyInput);
      const { rows } = await this.statement<{ partner_id: string; idempotency_key: string }>(CLAIM_NEW_KEYS, [
        sent.map((claim) => claim.partnerId),
        sent.map((claim) => claim.key),
        sent.map((claim) => claim.requestHash),
        sent.map((claim) => claim.nowMs),
        sent.map((claim) => claim.nowMs + claim.leaseMs),
        sent.map((claim) => claim.claimToken),
      ]);
      const inserted = new Set(rows.map((row) => JSON.stringify([row.partner_id, row.idempotency_key])));
      return claims.map((claim, i) => first.get(slot(claim)) === i && inserted.has(slot(claim)));
    },
    BATCH_ITEMS,
    BATCHES_RUNNING,
  );

  /** Group commit of completions (COMPLETE_RESERVATIONS), one outcome per booking in order. */
  private readonly completions = new TurnBatch<
    CompleteReservationInput,
    { held: boolean; created: boolean; completed: boolean }
  >(
    async (inputs) => {
      const column = <T>(of: (input: CompleteReservationInput) => T) => inputs.map(of);
      const { rows } = await this.statement<{ held: boolean; created: boolean; completed: boolean }>(
        COMPLETE_RESERVATIONS,
        [
          column((input) => input.partnerId),
          column((input) => storedText(input.key)),
          column((input) => input.claimToken),
          column((input) => input.reservation.reservationId),
          column(({ reservation: stored }) =>
            referenceColumn(
              stored.uniqueReference === undefined ? stored.reservation.partnerReference : stored.uniqueReference,
            ),
          ),
          column((input) => input.reservation.reservation.status),
          column((input) => input.reservation.moneyAttached),
          column((input) => input.reservation.createdAtMs),
          column((input) => JSON.stringify(input.reservation.reservation)),
          column((input) => input.responseStatus),
          column((input) => toJson(input.responseBody)),
        ],
      );
      return rows;
    },
    BATCH_ITEMS,
    BATCHES_RUNNING,
  );

  async partnerReferenceExists(partnerId: string, partnerReference: string): Promise<boolean> {
    const { rowCount } = await this.pool.query({
      ...REFERENCE_EXISTS,
      values: [partnerId, storedText(partnerReference)],
    });
    return (rowCount ?? 0) > 0;
  }

  async getReservation(partnerId: string, reservationId: string): Promise<StoredReservation | null> {
    const { rows } = await this.pool.query<ReservationRow>(
      `SELECT ${RESERVATION_COLUMNS} FROM reservations WHERE reservation_id = $1 AND partner_id = $2`,
      [storedText(reservationId), partnerId],
    );
    return rows[0] ? toStoredReservation(rows[0]) : null;
  }

  async getReservationById(reservationId: string): Promise<StoredReservation | null> {
    return this.selectReservation(this.pool, reservationId, false);
  }

  private async selectReservation(
    db: Queryable,
    reservationId: string,
    forUpdate: boolean,
  ): Promise<StoredReservation | null> {
    const { rows } = await db.query<ReservationRow>(
      `SELECT ${RESERVATION_COLUMNS} FROM reservations WHERE reservation_id = $1${forUpdate ? ' FOR UPDATE' : ''}`,
      [storedText(reservationId)],
    );
    return rows[0] ? toStoredReservation(rows[0]) : null;
  }

  async listReservations(partnerId: string, limit: number): Promise<StoredReservation[]> {
    const { rows } = await this.pool.query<ReservationRow>(
      `SELECT ${RESERVATION_COLUMNS} FROM reservations WHERE partner_id = $1
       ORDER BY created_at_ms DESC, seq DESC LIMIT $2`,
      [partnerId, Math.max(0, Math.trunc(limit))],
    );
    return rows.map(toStoredReservation);
  }

  async transitionReservation(
    reservationId: string,
    from: readonly ReservationStatus[],
    to: ReservationStatus,
    options: TransitionOptions = {},
  ): Promise<{ changed: boolean; reservation: StoredReservation } | null> {
    return this.transaction(async (client) => {
      const current = await this.selectReservation(client, reservationId, true);
      if (!current) return null;
      if (!from.includes(current.reservation.status) || (options.onlyWithoutMoney && current.moneyAttached)) {
        return { changed: false, reservation: current };
      }
      const next: StoredReservation = { ...current, reservation: { ...current.reservation, status: to } };
      await client.query('UPDATE reservations SET status = $2, document = $3 WHERE reservation_id = $1', [
        reservationId,
        to,
        JSON.stringify(next.reservation),
      ]);
      return { changed: true, reservation: next };
    });
  }

  async setMoneyAttached(reservationId: string, attached: boolean): Promise<boolean> {
    const { rowCount } = await this.pool.query(
      'UPDATE reservations SET money_attached = $2 WHERE reservation_id = $1',
      [storedText(reservationId), attached],
    );
    return (rowCount ?? 0) > 0;
  }

  async recordStaffAlert(alert: StaffAlert): Promise<void> {
    await this.pool.query(
      `INSERT INTO staff_alerts (alert_id, kind, reservation_id, partner_id, reason, created_at_ms)
       VALUES ($1, $2, $3, $4, $5, $6)`,
      [alert.alertId, alert.kind, alert.reservationId, alert.partnerId, storedText(alert.reason), alert.createdAtMs],
    );
  }

  async listStaffAlerts(): Promise<StaffAlert[]> {
    const { rows } = await this.pool.query<{
      alert_id: string;
      kind: StaffAlert['kind'];
      reservation_id: string;
      partner_id: string;
      reason: string;
      created_at_ms: string;
    }>(
      `SELECT alert_id, kind, reservation_id, partner_id, reason, created_at_ms FROM staff_alerts
       ORDER BY created_at_ms, seq`,
    );
    return rows.map((r) => ({
      alertId: r.alert_id,
      kind: r.kind,
      reservationId: r.reservation_id,
      partnerId: r.partner_id,
      reason: fromStoredText(r.reason),
      createdAtMs: Number(r.created_at_ms),
    }));
  }

  /** The control read in flight, and the one queued to start when it ends (see `getControlState`). */
  private controlRead: Promise<ControlState> | undefined;
  private nextControlRead: Promise<ControlState> | undefined;

  /**
   * Every request reads the control state, and another instance may change it at any moment, so nothing here may
   * answer from a copy older than any change already answered. While the watch holds a lease (ControlWatch) its copy
   * is that, taken once a turn of the event loop for every call of the turn, at the turn's end (setImmediate): the
   * requests read in one poll phase then go on together and their responses leave in one burst, one wake-up of the
   * peer instead of one per response (the write system call's cost is mostly that wake-up: POST /availability 85 to
   * 74 µs a request, docs/measurements/bench-2026-11-24-to-29.md "The control watch, a burst a turn"). Otherwise the row is read, and concurrent
   * reads are shared: a call made while a read is in flight (sent before the call, so it may miss a change made just
   * before it) waits for the next read, which starts when that one ends and is shared by every call made meanwhile. Each call so sees a read sent after it was made; under
   * load there is one round trip per round trip's worth of requests instead of one each (docs/measurements/bench-2026-11-24-to-29.md "PostgreSQL
   * read rows").
   */
  getControlState(): Promise<ControlState> {
    if (this.watch.current() === undefined) return this.readShared();
    this.controlThisTurn ??= new Promise<ControlState>((resolve, reject) => {
      setImmediate(() => {
        this.controlThisTurn = undefined;
        const trusted = this.watch.current();
        if (trusted !== undefined) resolve(trusted);
        else this.readShared().then(resolve, reject);
      });
    });
    return this.controlThisTurn;
  }

  /** The copy under lease, taken once a turn for every call of the turn (see `getControlState`). */
  private controlThisTurn: Promise<ControlState> | undefined;

  private readShared(): Promise<ControlState> {
    if (this.controlRead === undefined) {
      const read = this.readControlState();
      this.controlRead = read;
      const clear = () => {
        if (this.controlRead === read) this.controlRead = undefined;
      };
      read.then(clear, clear);
      return read;
    }
    if (this.nextControlRead === undefined) {
      const next = this.controlRead.then(
        () => undefined,
        () => undefined,
      );
      this.nextControlRead = next.then(() => {
        this.nextControlRead = undefined;
        return this.readShared();
      });
    }
    return this.nextControlRead;
  }

  /** The last control row read, as text, and its state: an unchanged row is not parsed and frozen again. */
  private lastControl: { text: string | undefined; state: ControlState } | undefined;

  private async readControlState(): Promise<ControlState> {
    const { rows } = await this.pool.query<{ state: string }>(READ_CONTROL_STATE);
    return this.controlFromText(rows[0]?.state);
  }

  private controlFromText(text: string | undefined): ControlState {
    if (this.lastControl !== undefined && this.lastControl.text === text) return this.lastControl.state;
    const state = sharedControlState(text === undefined ? {} : JSON.parse(text));
    this.lastControl = { text, state };
    return state;
  }

  /**
   * Read, change and write the single control row while holding its row lock. Returns the new version, or
   * undefined when `change` returned the state it was given (nothing written, nothing announced).
   */
  private async modifyControl<T>(
    change: (state: ControlState) => { state: ControlState; result: T },
  ): Promise<{ result: T; version: number | undefined }> {
    return this.transaction(async (client) => {
      await client.query(ENSURE_CONTROL_ROW, [JSON.stringify(normalizeControlState({}))]);
      const { rows } = await client.query<{ state: unknown }>(
        'SELECT state FROM control_state WHERE id = 1 FOR UPDATE',
      );
      const current = normalizeControlState(rows[0]?.state ?? {});
      const { state, result } = change(current);
      if (state === current) return { result, version: undefined };
      const written = await client.query<{ version: string }>(WRITE_CONTROL_STATE, [
        JSON.stringify(normalizeControlState(state)),
      ]);
      return { result, version: Number(written.rows[0]?.version) };
    });
  }

  /**
   * Until no instance trusts a copy older than `version` (ControlWatch): each has acknowledged it, or its lease
   * lapsed. A lease behind cannot be extended, so this ends within a lease of the commit; the bound beyond that is
   * only against a database clock that jumped.
   */
  private async untilSeen(version: number): Promise<void> {
    const deadline = performance.now() + 4 * this.watchTiming.leaseMs;
    for (;;) {
      const { rows } = await this.pool.query<{ behind: number }>({ ...LEASES_BEHIND, values: [version] });
      if ((rows[0]?.behind ?? 0) === 0) return;
      if (performance.now() > deadline) {
        throw new Error(`control state version ${version}: instances still hold leases on older copies`);
      }
      await delay(1);
    }
  }

  async updateControlState(update: (state: ControlState) => ControlState): Promise<ControlState> {
    const { result, version } = await this.modifyControl((current) => {
      const state = normalizeControlState(update(current));
      return { state, result: state };
    });
    if (version !== undefined) await this.untilSeen(version);
    return result;
  }

  /**
   * Not waiting for the other instances: a copy that still shows the decline only sends its booking here, where
   * the row lock gives each decline to one booking, and a copy can never show fewer declines than the row.
   */
  async takeDeclineNextBooking(): Promise<boolean> {
    return (
      await this.modifyControl((current) => {
        const { state, taken } = takeOneDecline(current);
        return { state, result: taken };
      })
    ).result;
  }
}
