import { randomBytes } from 'node:crypto';
import Database from 'better-sqlite3';
import pg from 'pg';
import type { Reservation, ReservationStatus } from '../../contract/types.ts';
import { partners } from '../../fixtures/partners.ts';
import { timeOrderedUuid } from '../domain/time-ordered-id.ts';
import { parseStoreUrl } from './index.ts';

/**
 * Seeds a store with many existing reservations for the scale rows of the benchmark (load/README.md "Benchmark"),
 * straight into the database: going through the API would take hours at a million. Every row is a variation of one
 * real reservation the reference produced (the template), so the documents are the size and shape the API writes.
 * Run by the bench as a process of its own (seed-cli.ts): load/ never imports reference-impl/.
 */
export interface SeedOptions {
  /** reservationId of the template, already in the store. */
  templateId: string;
  /** Rows to add. */
  count: number;
  /** Index of the first row: a later call continues the numbering (and the ages) where the last one stopped. */
  from?: number;
  /** Share of the rows owned by the template's partner; the rest is spread over the other booking partners. */
  ownerShare?: number;
  /** Row i is created this long before the template, times i + 1 (default 30 s: a million rows span 347 days). */
  spacingMs?: number;
  /** Rows per transaction. */
  chunk?: number;
}

export interface SeedResult {
  seeded: number;
  ms: number;
  /** Up to 1,000 ids of the template partner's seeded rows, spread evenly from newest to oldest. */
  sampleIds: string[];
}

interface SeedRow {
  reservationId: string;
  partnerId: string;
  partnerReference: string | null;
  status: ReservationStatus;
  createdAtMs: number;
  document: string;
}

interface Template {
  partnerId: string;
  createdAtMs: number;
  reservation: Reservation;
}

const CODE_ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const SAMPLE_SIZE = 1000;

/** Partners that may hold reservations (fixtures): the ones whose grant carries reservations:write. */
const BOOKING_PARTNERS = partners.filter((p) => p.scopes.includes('reservations:write')).map((p) => p.partnerId);

function bookingCode(): string {
  let code = '';
  for (const b of randomBytes(8)) code += CODE_ALPHABET[b % 32];
  return `RKT-${code}`;
}

/** A local date-time (no offset) moved by `deltaMs`. */
function shiftLocal(local: string | null, deltaMs: number): string | null {
  if (local === null) return null;
  return new Date(Date.parse(`${local}Z`) + deltaMs).toISOString().slice(0, 19);
}

/** Most rows confirmed, some cancelled or completed, as a live book of reservations would be. */
function statusOf(index: number): ReservationStatus {
  const tenth = index % 10;
  return tenth === 3 ? 'cancelled' : tenth === 7 ? 'completed' : 'confirmed';
}

export function seedRow(template: Template, index: number, options: Required<SeedOptions>): SeedRow {
  const others = BOOKING_PARTNERS.filter((p) => p !== template.partnerId);
  // Deterministic spread: the first ownerShare of every hundred rows is the owner's, the rest round-robin.
  const owned = index % 100 < Math.round(options.ownerShare * 100) || others.length === 0;
  const partnerId = owned ? template.partnerId : (others[index % others.length] as string);
  const deltaMs = -(index + 1) * options.spacingMs;
  const createdAtMs = template.createdAtMs + deltaMs;
  const status = statusOf(index);
  const reservation: Reservation = {
    ...template.reservation,
    // As the reference makes them (domain/reservations.ts): time-ordered by the row's creation, so a seeded store's
    // id index is the one a store that took these bookings would hold, and new bookings land after every seeded row.
    reservationId: `RSV-${timeOrderedUuid(createdAtMs)}`,
    // A third without a reference, as partners that send none; the rest unique per partner by the index.
    partnerReference: index % 3 === 0 ? null : `SEED-${index}`,
    rocketBookingCode: bookingCode(),
    status,
    pickupDateTime: shiftLocal(template.reservation.pickupDateTime, deltaMs),
    dropoffDateTime: shiftLocal(template.reservation.dropoffDateTime, deltaMs),
    createdAt: new Date(createdAtMs).toISOString(),
  };
  return {
    reservationId: reservation.reservationId,
    partnerId,
    partnerReference: reservation.partnerReference,
    status,
    createdAtMs,
    document: JSON.stringify(reservation),
  };
}

/** Collects every `step`-th id of the owner's rows. */
class Sampler {
  readonly ids: string[] = [];
  private seen = 0;
  constructor(
    private readonly owner: string,
    private readonly step: number,
  ) {}
  add(row: SeedRow): void {
    if (row.partnerId !== this.owner) return;
    if (this.seen++ % this.step === 0 && this.ids.length < SAMPLE_SIZE) this.ids.push(row.reservationId);
  }
}

function withDefaults(options: SeedOptions): Required<SeedOptions> {
  return { from: 0, ownerShare: 0.6, spacingMs: 30_000, chunk: 50_000, ...options };
}

function* rows(template: Template, options: Required<SeedOptions>, sampler: Sampler): Generator<SeedRow[]> {
  const end = options.from + options.count;
  for (let start = options.from; start < end; start += options.chunk) {
    const chunk: SeedRow[] = [];
    for (let i = start; i < Math.min(end, start + options.chunk); i++) {
      const row = seedRow(template, i, options);
      sampler.add(row);
      chunk.push(row);
    }
    yield chunk;
  }
}

function seedSqlite(path: string, options: Required<SeedOptions>): string[] {
  const db = new Database(path, { timeout: 60_000 });
  try {
    // Bench data on a scratch file: no fsync per chunk, and a cache that holds the random-keyed id index.
    db.pragma('synchronous = OFF');
    db.pragma('cache_size = -262144');
    const found = db
      .prepare('SELECT partner_id, created_at_ms, document FROM reservations WHERE reservation_id = ?')
      .get(options.templateId) as { partner_id: string; created_at_ms: number; document: string } | undefined;
    if (!found) throw new Error(`template reservation ${options.templateId} not found`);
    const template = {
      partnerId: found.partner_id,
      createdAtMs: found.created_at_ms,
      reservation: JSON.parse(found.document),
    };
    const sampler = new Sampler(template.partnerId, sampleStep(options));
    const insert = db.prepare(
      `INSERT INTO reservations (reservation_id, partner_id, partner_reference, status, money_attached, created_at_ms, document)
       VALUES (?, ?, ?, ?, 0, ?, ?)`,
    );
    const insertChunk = db.transaction((chunk: SeedRow[]) => {
      for (const r of chunk) {
        insert.run(r.reservationId, r.partnerId, r.partnerReference, r.status, r.createdAtMs, r.document);
      }
    });
    for (const chunk of rows(template, options, sampler)) insertChunk.immediate(chunk);
    db.pragma('wal_checkpoint(TRUNCATE)');
    return sampler.ids;
  } finally {
    db.close();
  }
}

/** Rows per multi-row INSERT (arrays through unnest: one round trip, one plan). */
const PG_STATEMENT_ROWS = 5_000;

async function seedPostgres(url: string, options: Required<SeedOptions>): Promise<string[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows: found } = await client.query<{ partner_id: string; created_at_ms: string; document: Reservation }>(
      'SELECT partner_id, created_at_ms, document FROM reservations WHERE reservation_id = $1',
      [options.templateId],
    );
    const row = found[0];
    if (!row) throw new Error(`template reservation ${options.templateId} not found`);
    const template = { partnerId: row.partner_id, createdAtMs: Number(row.created_at_ms), reservation: row.document };
    const sampler = new Sampler(template.partnerId, sampleStep(options));
    // Bench data: a commit need not wait for the WAL flush.
    await client.query('SET synchronous_commit = off');
    for (const chunk of rows(template, options, sampler)) {
      await client.query('BEGIN');
      for (let i = 0; i < chunk.length; i += PG_STATEMENT_ROWS) {
        const part = chunk.slice(i, i + PG_STATEMENT_ROWS);
        await client.query(
          `INSERT INTO reservations (reservation_id, partner_id, partner_reference, status, created_at_ms, document)
           SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::bigint[], $6::json[])`,
          [
            part.map((r) => r.reservationId),
            part.map((r) => r.partnerId),
            part.map((r) => r.partnerReference),
            part.map((r) => r.status),
            part.map((r) => r.createdAtMs),
            part.map((r) => r.document),
          ],
        );
      }
      await client.query('COMMIT');
    }
    // What autovacuum does a little later (an insert-heavy table is vacuumed too, PostgreSQL 13 and later) and what a
    // checkpoint then writes: done now, so that reads measured at this size see a table in its steady state instead of
    // the bulk load's aftermath (hint bits set page by page, autovacuum and the writeback running beside the measure).
    await client.query('VACUUM (ANALYZE) reservations');
    // A superuser's or pg_checkpoint's right; without it the checkpointer does the same on its own schedule.
    await client.query('CHECKPOINT').catch(() => undefined);
    return sampler.ids;
  } finally {
    await client.end();
  }
}

/** Every how many owner rows one is sampled, so the sample spans the whole range seeded. */
function sampleStep(options: Required<SeedOptions>): number {
  return Math.max(1, Math.floor((options.count * options.ownerShare) / SAMPLE_SIZE));
}

export async function seedReservations(databaseUrl: string, options: SeedOptions): Promise<SeedResult> {
  const full = withDefaults(options);
  const started = performance.now();
  const location = parseStoreUrl(databaseUrl);
  const sampleIds =
    location.kind === 'sqlite' ? seedSqlite(location.path, full) : await seedPostgres(location.url, full);
  return { seeded: full.count, ms: Math.round(performance.now() - started), sampleIds };
}
