import type BetterSqlite3 from 'better-sqlite3';
import type { Pool } from 'pg';

/**
 * Versioned schema steps. A step, once released, is never edited: a schema change is a new step. Where the
 * dialects differ (types, identity columns, JSON) each carries its own SQL.
 *
 * Layout (both dialects):
 * - secrets: named values shared by every instance (signing keys).
 * - idempotency_keys: one row per (partner, key); in flight with a lease, or done with the response to replay;
 *   indexed by creation time for the purge of records past the memory window (version 3).
 * - reservations: the public document as JSON plus the indexed columns; `seq` gives insertion order for a
 *   stable newest-first list; partnerReference unique per partner by a partial unique index.
 *   (SQLite: `seq` is the INTEGER PRIMARY KEY AUTOINCREMENT, because only a rowid alias can autoincrement and
 *   an implicit rowid may be renumbered by VACUUM; reservation_id is NOT NULL UNIQUE there.)
 * - staff_alerts: cancellations that need staff (spec 3).
 * - control_state: the single row (id = 1) of operator control, as JSON (PostgreSQL: with a version, version 5).
 * - control_listeners (PostgreSQL): each instance's lease on its copy of the control state (version 5).
 */
export interface Migration {
  version: number;
  name: string;
  sqlite: string;
  postgres: string;
}

const DEFAULT_CONTROL_JSON =
  '{"clockOffsetMs":0,"apiDisabled":false,"disabledPartnerIds":[],"priceMovesPercent":{},"declineNextBookings":0}';

const STATUSES = "'pending','confirmed','in_progress','completed','cancelled','expired','rejected'";

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'initial schema',
    sqlite: `
      CREATE TABLE secrets (
        name TEXT PRIMARY KEY,
        value TEXT NOT NULL
      );
      CREATE TABLE idempotency_keys (
        partner_id TEXT NOT NULL,
        idempotency_key TEXT NOT NULL,
        request_hash TEXT NOT NULL,
        state TEXT NOT NULL CHECK (state IN ('in_flight', 'done')),
        created_at_ms INTEGER NOT NULL,
        lease_until_ms INTEGER NOT NULL,
        response_status INTEGER,
        response_body TEXT,
        PRIMARY KEY (partner_id, idempotency_key),
        CHECK (state = 'in_flight' OR (response_status IS NOT NULL AND response_body IS NOT NULL))
      );
      CREATE TABLE reservations (
        seq INTEGER PRIMARY KEY AUTOINCREMENT,
        reservation_id TEXT NOT NULL UNIQUE,
        partner_id TEXT NOT NULL,
        partner_reference TEXT,
        status TEXT NOT NULL CHECK (status IN (${STATUSES})),
        money_attached INTEGER NOT NULL DEFAULT 0 CHECK (money_attached IN (0, 1)),
        created_at_ms INTEGER NOT NULL,
        document TEXT NOT NULL
      );
      CREATE UNIQUE INDEX reservations_partner_reference_key
        ON reservations (partner_id, partner_reference) WHERE partner_reference IS NOT NULL;
      CREATE INDEX reservations_partner_newest ON reservations (partner_id, created_at_ms DESC, seq DESC);
      CREATE TABLE staff_alerts (
        seq INTEGER PRIMARY KEY AUTOINCREMENT,
        alert_id TEXT NOT NULL UNIQUE,
        kind TEXT NOT NULL,
        reservation_id TEXT NOT NULL REFERENCES reservations (reservation_id),
        partner_id TEXT NOT NULL,
        reason TEXT NOT NULL,
        created_at_ms INTEGER NOT NULL
      );
      CREATE TABLE control_state (
        id INTEGER PRIMARY KEY CHECK (id = 1),
        state TEXT NOT NULL
      );
      INSERT INTO control_state (id, state) VALUES (1, '${DEFAULT_CONTROL_JSON}');
    `,
    postgres: `
      CREATE TABLE secrets (
        name TEXT PRIMARY KEY,
        value TEXT NOT NULL
      );
      CREATE TABLE idempotency_keys (
        partner_id TEXT NOT NULL,
        idempotency_key TEXT NOT NULL,
        request_hash TEXT NOT NULL,
        state TEXT NOT NULL CHECK (state IN ('in_flight', 'done')),
        created_at_ms BIGINT NOT NULL,
        lease_until_ms BIGINT NOT NULL,
        response_status INTEGER,
        response_body JSON,
        PRIMARY KEY (partner_id, idempotency_key),
        CHECK (state = 'in_flight' OR (response_status IS NOT NULL AND response_body IS NOT NULL))
      );
      -- JSON (not JSONB) keeps the document text as written, so a replay answers the original bytes.
      CREATE TABLE reservations (
        reservation_id TEXT PRIMARY KEY,
        seq BIGINT GENERATED ALWAYS AS IDENTITY UNIQUE,
        partner_id TEXT NOT NULL,
        partner_reference TEXT,
        status TEXT NOT NULL CHECK (status IN (${STATUSES})),
        money_attached BOOLEAN NOT NULL DEFAULT FALSE,
        created_at_ms BIGINT NOT NULL,
        document JSON NOT NULL
      );
      CREATE UNIQUE INDEX reservations_partner_reference_key
        ON reservations (partner_id, partner_reference) WHERE partner_reference IS NOT NULL;
      CREATE INDEX reservations_partner_newest ON reservations (partner_id, created_at_ms DESC, seq DESC);
      CREATE TABLE staff_alerts (
        alert_id TEXT PRIMARY KEY,
        seq BIGINT GENERATED ALWAYS AS IDENTITY UNIQUE,
        kind TEXT NOT NULL,
        reservation_id TEXT NOT NULL REFERENCES reservations (reservation_id),
        partner_id TEXT NOT NULL,
        reason TEXT NOT NULL,
        created_at_ms BIGINT NOT NULL
      );
      CREATE TABLE control_state (
        id INTEGER PRIMARY KEY CHECK (id = 1),
        state JSON NOT NULL
      );
      INSERT INTO control_state (id, state) VALUES (1, '${DEFAULT_CONTROL_JSON}');
    `,
  },
  {
    version: 2,
    name: 'idempotency claim token (fencing of lapsed claims)',
    sqlite: "ALTER TABLE idempotency_keys ADD COLUMN claim_token TEXT NOT NULL DEFAULT '';",
    postgres: "ALTER TABLE idempotency_keys ADD COLUMN claim_token TEXT NOT NULL DEFAULT '';",
  },
  {
    // The background purge (domain/idempotency-purge.ts) finds records past the 24 h memory by their age; without
    // this index each batch would scan the whole table. PostgreSQL builds it inside the migration transaction
    // (CONCURRENTLY cannot run there): writes to the table wait for the build, once.
    version: 3,
    name: 'idempotency records by creation time (background purge)',
    sqlite: 'CREATE INDEX idempotency_keys_created_at ON idempotency_keys (created_at_ms);',
    postgres: 'CREATE INDEX idempotency_keys_created_at ON idempotency_keys (created_at_ms);',
  },
  {
    // PostgreSQL's group commit of bookings (store/postgres.ts COMPLETE_RESERVATIONS): the completions of one turn of
    // the event loop in one call, so one transaction and one WAL flush. Each booking is the former single statement's
    // three steps, in order, each a lookup by key: as a function its statements keep plans by primary key, where one
    // SQL statement joining the batch to the tables got a plan made while the tables were small (a sequential scan
    // per batch, kept by the plan cache as the tables grew). Per booking: lock its key row if still in flight under
    // its claim token (a takeover that committed first changed the token: not held); insert the reservation unless
    // its reference is taken (the partial unique index decides, waiting for a concurrent insert of the same
    // reference); mark the key done with the response only when the reservation went in.
    version: 4,
    name: 'booking completions in batches (PostgreSQL function complete_reservations)',
    sqlite: '-- PostgreSQL only: the SQLite store commits a group of bookings in one transaction of its own.',
    postgres: `
      CREATE FUNCTION complete_reservations(
        p_partner TEXT[], p_key TEXT[], p_token TEXT[], p_reservation TEXT[], p_reference TEXT[], p_status TEXT[],
        p_money BOOLEAN[], p_created BIGINT[], p_document JSON[], p_response_status INTEGER[], p_response_body JSON[]
      ) RETURNS TABLE (held BOOLEAN, created BOOLEAN, completed BOOLEAN)
      LANGUAGE plpgsql AS $$
      DECLARE
        i INTEGER;
        changed INTEGER;
      BEGIN
        FOR i IN 1 .. coalesce(array_length(p_partner, 1), 0) LOOP
          held := false;
          created := false;
          completed := false;
          PERFORM 1 FROM idempotency_keys
            WHERE partner_id = p_partner[i] AND idempotency_key = p_key[i] AND state = 'in_flight'
              AND claim_token = p_token[i]
            FOR UPDATE;
          IF FOUND THEN
            held := true;
            INSERT INTO reservations
              (reservation_id, partner_id, partner_reference, status, money_attached, created_at_ms, document)
            VALUES (p_reservation[i], p_partner[i], p_reference[i], p_status[i], p_money[i], p_created[i], p_document[i])
            ON CONFLICT (partner_id, partner_reference) WHERE partner_reference IS NOT NULL DO NOTHING;
            GET DIAGNOSTICS changed = ROW_COUNT;
            IF changed = 1 THEN
              created := true;
              UPDATE idempotency_keys
                SET state = 'done', response_status = p_response_status[i], response_body = p_response_body[i]
                WHERE partner_id = p_partner[i] AND idempotency_key = p_key[i] AND claim_token = p_token[i];
              GET DIAGNOSTICS changed = ROW_COUNT;
              completed := changed = 1;
            END IF;
          END IF;
          RETURN NEXT;
        END LOOP;
      END
      $$;
    `,
  },
  {
    // PostgreSQL's control state without a read per request (store/postgres-control-watch.ts): every change bumps
    // `version` and notifies; an instance answers from its copy only while it holds a lease on which it has
    // acknowledged the current version, and a writer answers only once no unexpired lease is behind its version.
    // renew_control_lease reads the version under a share lock, so no change can commit between that check and the
    // lease it grants: a lease is extended only for an instance that has seen every committed change.
    version: 5,
    name: 'control state versions and instance leases (PostgreSQL control watch)',
    sqlite: '-- PostgreSQL only: SQLite instances share one file, whose data_version each reads once a turn.',
    postgres: `
      ALTER TABLE control_state ADD COLUMN version BIGINT NOT NULL DEFAULT 0;
      CREATE TABLE control_listeners (
        instance_id TEXT PRIMARY KEY,
        lease_until TIMESTAMPTZ NOT NULL,
        seen_version BIGINT NOT NULL
      );
      CREATE FUNCTION renew_control_lease(p_instance TEXT, p_seen BIGINT, p_lease_ms INTEGER)
        RETURNS TABLE (current_version BIGINT, current_state TEXT)
      LANGUAGE plpgsql AS $$
      DECLARE
        v_version BIGINT;
        v_state TEXT;
      BEGIN
        SELECT c.version, c.state::text INTO v_version, v_state FROM control_state c WHERE c.id = 1 FOR SHARE;
        IF v_version IS NOT NULL AND p_seen = v_version THEN
          INSERT INTO control_listeners (instance_id, lease_until, seen_version)
            VALUES (p_instance, clock_timestamp() + p_lease_ms * interval '1 millisecond', p_seen)
            ON CONFLICT (instance_id)
            DO UPDATE SET lease_until = EXCLUDED.lease_until, seen_version = EXCLUDED.seen_version;
          RETURN QUERY SELECT v_version, NULL::text;
        ELSE
          RETURN QUERY SELECT v_version, v_state;
        END IF;
      END
      $$;
    `,
  },
];

const SQLITE_MIGRATIONS_TABLE = `
  CREATE TABLE IF NOT EXISTS schema_migrations (
    version INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    applied_at TEXT NOT NULL
  )`;

const POSTGRES_MIGRATIONS_TABLE = `
  CREATE TABLE IF NOT EXISTS schema_migrations (
    version INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    applied_at TIMESTAMPTZ NOT NULL DEFAULT now()
  )`;

/** Serialises migrate() across every instance on one PostgreSQL database (advisory locks are per database). */
const POSTGRES_MIGRATION_LOCK = "SELECT pg_advisory_xact_lock(hashtext('partner-api-store:migrate'))";

function pending(applied: ReadonlySet<number>, migrations: readonly Migration[]): Migration[] {
  return [...migrations].sort((a, b) => a.version - b.version).filter((m) => !applied.has(m.version));
}

/**
 * Applies pending steps in one BEGIN IMMEDIATE transaction, which takes the write lock before reading
 * schema_migrations, so a second process opening the same file waits (busy_timeout) and then finds
 * nothing to do. Returns the versions applied by this call.
 */
export function migrateSqlite(db: BetterSqlite3.Database, migrations: readonly Migration[] = MIGRATIONS): number[] {
  const run = db.transaction((): number[] => {
    db.exec(SQLITE_MIGRATIONS_TABLE);
    const rows = db.prepare('SELECT version FROM schema_migrations').all() as { version: number }[];
    const todo = pending(new Set(rows.map((r) => r.version)), migrations);
    const record = db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)');
    for (const step of todo) {
      db.exec(step.sqlite);
      record.run(step.version, step.name, new Date().toISOString());
    }
    return todo.map((m) => m.version);
  });
  return run.immediate();
}

/**
 * Applies pending steps in one transaction holding a transaction-scoped advisory lock, taken before
 * anything else (even CREATE TABLE IF NOT EXISTS races on PostgreSQL's system tables without it). A second
 * instance waits for the lock, then sees every step recorded. Returns the versions applied by this call.
 */
export async function migratePostgres(pool: Pool, migrations: readonly Migration[] = MIGRATIONS): Promise<number[]> {
  const client = await pool.connect();
  let broken: Error | undefined;
  try {
    await client.query('BEGIN');
    try {
      await client.query(POSTGRES_MIGRATION_LOCK);
      await client.query(POSTGRES_MIGRATIONS_TABLE);
      const { rows } = await client.query<{ version: number }>('SELECT version FROM schema_migrations');
      const todo = pending(new Set(rows.map((r) => r.version)), migrations);
      for (const step of todo) {
        await client.query(step.postgres);
        await client.query('INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [step.version, step.name]);
      }
      await client.query('COMMIT');
      return todo.map((m) => m.version);
    } catch (err) {
      await client.query('ROLLBACK').catch((rollbackError: Error) => {
        broken = rollbackError;
      });
      throw err;
    }
  } finally {
    client.release(broken);
  }
}
