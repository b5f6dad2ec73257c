/**
 * The bench's scale rows (`--scale 10000,100000,1000000`): the reference's reservation reads and bookings on a store
 * already holding N reservations, each against the same operation on the store before seeding. The rows are seeded
 * straight into the database by the reference's own seeder, run as a process (load/ never imports reference-impl/),
 * modelled on one reservation this run booked through the API.
 */
import { randomBytes } from 'node:crypto';
import { request } from 'undici';
import { API_PREFIX } from '../../contract/constants.ts';
import { driver } from '../engine-neutral/partner-api.ts';
import type { BenchAccess } from './access.ts';
import { BENCH_ENDPOINTS, type BenchEndpoint } from './endpoints.ts';
import type { Measurement } from './measure.ts';
import { type RunningServer, runSeeder } from './processes.ts';

/** The goal of every scale row: p99 within this factor of the same operation on the store before seeding. */
export const SCALE_P99_GOAL = 1.5;

export interface ScaleRow {
  store: string;
  /** Reservations seeded before this row (0: the baseline, the store as the run's own bookings left it). */
  rows: number;
  operation: string;
  measurement: Measurement;
}

export interface SeedingRow {
  store: string;
  /** Seeded in total after this step. */
  rows: number;
  added: number;
  /** The seeder's own time (generation and inserts, transactions committed). */
  seedMs: number;
  /** Including the seeder process's start. */
  wallMs: number;
}

/** What a scale run found out besides its rows (operations that cannot be measured, and why). */
export const SCALE_NOTES = [
  "Rows 0 is the store before seeding: it holds the run's own bookings (its POST rows and warm-up), a few thousand " +
    'at most, so every list reads full pages.',
  'GET /reservations with a deep cursor: not measurable. Spec 4.8 gives the list a `limit` (1 to 100, newest first) ' +
    'and no cursor, offset or page parameter; the deepest read the API offers is the first 100 (the limit=100 row).',
];

type Ids = { list: string[]; next: number };

function get(name: string, path: (ids: Ids) => string, ids: Ids): BenchEndpoint {
  return {
    name,
    method: 'GET',
    path: `${API_PREFIX}/reservations`,
    request: (baseUrl: string, access: BenchAccess) => ({
      method: 'GET',
      url: `${baseUrl}${API_PREFIX}${path(ids)}`,
      headers: { authorization: `Bearer ${access.token}`, accept: 'application/json' },
      step: 'bench',
    }),
  };
}

/**
 * The operations of a scale row, bookings first: the baseline's list then holds a full page of the run's own
 * bookings, so every size lists pages of the same length. GET by id goes round the sampled ids (many rows, not one
 * cached page).
 */
function operations(ids: Ids): BenchEndpoint[] {
  const booking = BENCH_ENDPOINTS.find((e) => e.name === 'POST /reservations');
  if (!booking) throw new Error('no POST /reservations bench endpoint');
  return [
    booking,
    get('GET /reservations', () => '/reservations', ids),
    get('GET /reservations?limit=100', () => '/reservations?limit=100', ids),
    get(
      'GET /reservations/{id}',
      (state) => `/reservations/${encodeURIComponent(state.list[state.next++ % state.list.length] ?? 'none')}`,
      ids,
    ),
  ];
}

async function call(url: string, init: Parameters<typeof request>[1]): Promise<{ status: number; body: unknown }> {
  const res = await request(url, init);
  const text = await res.body.text();
  return { status: res.statusCode, body: text ? JSON.parse(text) : undefined };
}

/** One booking through the API: the template every seeded row varies. */
async function bookTemplate(baseUrl: string, access: BenchAccess): Promise<string> {
  const res = await call(`${baseUrl}${API_PREFIX}/reservations`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${access.token}`,
      'content-type': 'application/json',
      'idempotency-key': `bench-template-${randomBytes(8).toString('hex')}`,
    },
    body: JSON.stringify({ quoteId: access.quoteId, driver: driver(), partnerReference: 'BENCH-TEMPLATE' }),
  });
  const id = (res.body as { reservationId?: unknown } | undefined)?.reservationId;
  if (res.status !== 201 || typeof id !== 'string') throw new Error(`template booking: HTTP ${res.status}`);
  return id;
}

/** partnerA's newest reservations (the baseline's ids for GET by id). */
async function listedIds(baseUrl: string, access: BenchAccess): Promise<string[]> {
  const res = await call(`${baseUrl}${API_PREFIX}/reservations?limit=100`, {
    headers: { authorization: `Bearer ${access.token}`, accept: 'application/json' },
  });
  const list = (res.body as { reservations?: { reservationId: string }[] } | undefined)?.reservations;
  if (res.status !== 200 || !list) throw new Error(`list: HTTP ${res.status}`);
  return list.map((r) => r.reservationId);
}

export interface ScaleContext {
  store: string;
  databaseUrl: string;
  reference: RunningServer;
  access: BenchAccess;
  /** Sizes to reach, ascending; each is seeded on top of the last. */
  sizes: number[];
  measure(server: RunningServer, endpoint: BenchEndpoint, access: BenchAccess): Promise<Measurement>;
  log(text: string): void;
}

/** The baseline, then per size: seed up to it, measure every operation. */
export async function benchScale(ctx: ScaleContext): Promise<{ rows: ScaleRow[]; seeding: SeedingRow[] }> {
  const { store, reference, access } = ctx;
  const templateId = await bookTemplate(reference.url, access);
  const rows: ScaleRow[] = [];
  const seeding: SeedingRow[] = [];
  const sampled: string[] = [];
  let seeded = 0;
  // One round unmeasured first: the baseline would otherwise pay for a cold process (JIT, caches, the file's first
  // pages), which every later size has behind it, and the ratios would flatter the seeded store.
  for (const size of [-1, 0, ...ctx.sizes]) {
    if (size > seeded) {
      ctx.log(`${store}: seeding ${size - seeded} reservations (to ${size})`);
      const started = performance.now();
      const result = await runSeeder(ctx.databaseUrl, templateId, size - seeded, seeded);
      const wallMs = Math.round(performance.now() - started);
      seeding.push({ store, rows: size, added: size - seeded, seedMs: result.ms, wallMs });
      sampled.push(...result.sampleIds);
      seeded = size;
    }
    if (size > 0) {
      // The reference sat idle while the seeder ran (a minute for a million rows) and comes back cold, as at its start:
      // PostgreSQL bookings at a million rows measured 1.53 to 1.96 × the empty store's p99 straight after seeding, also
      // after a 45 s pause, with every operation's CPU a request up 20 to 60 % (docs/measurements/bench-2026-11-24-to-29.md "Scale rows warmed (2026-11-29)").
      // One unmeasured round, as before the baseline.
      const warm: Ids = { list: shuffled(sampled), next: 0 };
      ctx.log(`${store} at ${seeded} rows: warming up, not measured`);
      for (const endpoint of operations(warm)) await ctx.measure(reference, endpoint, access);
    }
    const ids: Ids = { list: [], next: 0 };
    for (const endpoint of operations(ids)) {
      // The baseline reads the run's own bookings (made by the POST row just before); later sizes the seeded rows,
      // spread over every size seeded so far.
      if (endpoint.name === 'GET /reservations/{id}') {
        ids.list = seeded === 0 ? await listedIds(reference.url, access) : shuffled(sampled);
      }
      ctx.log(`${store} at ${seeded} rows${size < 0 ? ' (warming up, not measured)' : ''}: ${endpoint.name}`);
      const measurement = await ctx.measure(reference, endpoint, access);
      if (size >= 0) rows.push({ store, rows: seeded, operation: endpoint.name, measurement });
    }
  }
  return { rows, seeding };
}

function shuffled<T>(items: readonly T[]): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}

/** The p99 of a row over its operation's baseline (rows = 0) on the same store. */
export function p99Ratio(row: ScaleRow, all: readonly ScaleRow[]): number | undefined {
  const baseline = all.find((r) => r.store === row.store && r.operation === row.operation && r.rows === 0);
  if (!baseline || baseline.measurement.p99Ms <= 0) return undefined;
  return row.measurement.p99Ms / baseline.measurement.p99Ms;
}

export function scaleVerdict(row: ScaleRow, all: readonly ScaleRow[]): 'baseline' | 'met' | 'NOT met' | '-' {
  if (row.rows === 0) return 'baseline';
  const ratio = p99Ratio(row, all);
  if (ratio === undefined) return '-';
  return ratio <= SCALE_P99_GOAL ? 'met' : 'NOT met';
}
