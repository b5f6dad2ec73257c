import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import Database from 'better-sqlite3';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Reservation, ReservationStatus } from '../../contract/types.ts';
import { DEFAULT_CONTROL_STATE } from './control-state.ts';
import { openStore, parseStoreUrl } from './index.ts';
import { MIGRATIONS, migratePostgres, migrateSqlite } from './migrations.ts';
import { closeFully } from './pg-pool-end.ts';
import { PostgresStore } from './postgres.ts';
import { SqliteStore } from './sqlite.ts';
import type { ClaimIdempotencyKeyInput, Store, StoredReservation } from './types.ts';

const PG_ADMIN_URL = process.env.STORE_TEST_PG_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
const DAY_MS = 86_400_000;
const LEASE_MS = 30_000;
const T0 = Date.UTC(2030, 0, 1);

function pgUrl(database: string): string {
  const url = new URL(PG_ADMIN_URL);
  url.pathname = `/${database}`;
  return url.toString();
}

async function adminQuery(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: PG_ADMIN_URL });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

interface Backend {
  readonly name: 'sqlite' | 'postgres';
  setup(): Promise<void>;
  /** A new, migrated Store on this file's shared database (a second call gives a second, independent handle). */
  open(): Promise<Store>;
  /** A new empty database; returns a factory of unmigrated stores on it and its location. */
  fresh(): Promise<{ location: string; create: () => Store }>;
  teardown(): Promise<void>;
}

function sqliteBackend(): Backend {
  let dir = '';
  const stores: Store[] = [];
  const track = (store: Store) => {
    stores.push(store);
    return store;
  };
  return {
    name: 'sqlite',
    async setup() {
      dir = mkdtempSync(join(tmpdir(), 'store-test-'));
    },
    async open() {
      const store = track(new SqliteStore(join(dir, 'shared', 'store.db')));
      await store.migrate();
      return store;
    },
    async fresh() {
      const location = join(dir, randomUUID(), 'nested', 'fresh.db');
      return { location, create: () => track(new SqliteStore(location)) };
    },
    async teardown() {
      for (const store of stores) await store.close();
      if (dir) rmSync(dir, { recursive: true, force: true });
    },
  };
}

function postgresBackend(): Backend {
  const databases: string[] = [];
  const stores: Store[] = [];
  const track = (store: Store) => {
    stores.push(store);
    return store;
  };
  const createDatabase = async (): Promise<string> => {
    const name = `store_test_${randomUUID().replaceAll('-', '').slice(0, 16)}`;
    await adminQuery(`CREATE DATABASE ${name}`);
    databases.push(name);
    return name;
  };
  let shared = '';
  return {
    name: 'postgres',
    async setup() {
      shared = await createDatabase();
    },
    async open() {
      return track(await openStore(pgUrl(shared)));
    },
    async fresh() {
      const location = pgUrl(await createDatabase());
      return { location, create: () => track(new PostgresStore(location)) };
    },
    async teardown() {
      for (const store of stores) await store.close();
      for (const name of databases) await adminQuery(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    },
  };
}

function makeReservation(
  partnerId: string,
  options: {
    reservationId?: string;
    partnerReference?: string | null;
    status?: ReservationStatus;
    createdAtMs?: number;
    moneyAttached?: boolean;
  } = {},
): StoredReservation {
  const reservationId = options.reservationId ?? `R-${randomUUID()}`;
  const createdAtMs = options.createdAtMs ?? T0;
  const reservation: Reservation = {
    reservationId,
    partnerReference: options.partnerReference === undefined ? `ref-${randomUUID()}` : options.partnerReference,
    rocketBookingCode: `RB-${reservationId.slice(-6)}`,
    status: options.status ?? 'confirmed',
    vehicleCode: 'CDMR',
    pickupLocation: 'LIS',
    dropoffLocation: 'OPO',
    pickupDateTime: '2030-02-01T10:00:00',
    dropoffDateTime: '2030-02-04T10:00:00',
    rentalDays: 3,
    currency: 'EUR',
    total: { currency: 'EUR', amount: 12345, exponent: 2, display: '123.45 EUR' },
    commission: null,
    securityDeposit: { currency: 'EUR', amount: 50000, exponent: 2, display: '500.00 EUR' },
    driver: { firstName: 'Grace', lastName: 'Hopper', email: 'grace@example.com' },
    accountCode: null,
    rateCode: 'STD',
    createdAt: new Date(createdAtMs).toISOString(),
  };
  return { reservationId, partnerId, reservation, moneyAttached: options.moneyAttached ?? false, createdAtMs };
}

function claimInput(partnerId: string, key: string, overrides: Partial<ClaimIdempotencyKeyInput> = {}) {
  return {
    partnerId,
    key,
    requestHash: 'hash-a',
    nowMs: T0,
    leaseMs: LEASE_MS,
    retentionMs: DAY_MS,
    claimToken: 'token-a',
    ...overrides,
  };
}

/** Claims a key and completes it with a new reservation; returns what was stored. */
async function book(store: Store, partnerId: string, options: Parameters<typeof makeReservation>[1] = {}) {
  const key = `key-${randomUUID()}`;
  const stored = makeReservation(partnerId, options);
  const nowMs = options.createdAtMs ?? T0;
  expect(await store.claimIdempotencyKey(claimInput(partnerId, key, { nowMs }))).toEqual({ kind: 'claimed' });
  const result = await store.completeReservation({
    partnerId,
    key,
    claimToken: 'token-a',
    reservation: stored,
    responseStatus: 201,
    responseBody: stored.reservation,
  });
  expect(result).toEqual({ kind: 'created' });
  return { key, stored };
}

const partner = () => `partner-${randomUUID()}`;

describe.each([sqliteBackend(), postgresBackend()])('Store contract: $name', (backend) => {
  let store: Store;
  let other: Store;

  beforeAll(async () => {
    await backend.setup();
    store = await backend.open();
    other = await backend.open();
  });
  afterAll(async () => {
    await backend.teardown();
  });

  it('reports its kind', () => {
    expect(store.kind).toBe(backend.name);
  });

  describe('secrets', () => {
    it('creates a secret once and returns the stored value afterwards, to every instance', async () => {
      const name = `secret-${randomUUID()}`;
      let calls = 0;
      const first = await store.getOrCreateSecret(name, () => {
        calls++;
        return `value-${randomUUID()}`;
      });
      expect(calls).toBe(1);
      expect(await store.getOrCreateSecret(name, () => 'never used')).toBe(first);
      expect(await other.getOrCreateSecret(name, () => 'never used')).toBe(first);
    });

    it('two instances creating the same secret at once agree on one value', async () => {
      const name = `secret-${randomUUID()}`;
      const values = await Promise.all(
        Array.from({ length: 10 }, (_, i) => (i % 2 ? store : other).getOrCreateSecret(name, () => `candidate-${i}`)),
      );
      expect(new Set(values).size).toBe(1);
      expect(values[0]).toMatch(/^candidate-\d$/);
    });
  });

  describe('idempotency claims (spec 4.7)', () => {
    it('new key: claimed; same hash while in flight: in_flight; different hash: conflict', async () => {
      const p = partner();
      expect(await store.claimIdempotencyKey(claimInput(p, 'k-000001'))).toEqual({ kind: 'claimed' });
      expect(await store.claimIdempotencyKey(claimInput(p, 'k-000001', { nowMs: T0 + 1 }))).toEqual({
        kind: 'in_flight',
      });
      expect(await other.claimIdempotencyKey(claimInput(p, 'k-000001', { requestHash: 'hash-b' }))).toEqual({
        kind: 'conflict',
      });
    });

    it('keys are per partner', async () => {
      const [p1, p2] = [partner(), partner()];
      expect(await store.claimIdempotencyKey(claimInput(p1, 'k-shared'))).toEqual({ kind: 'claimed' });
      expect(await store.claimIdempotencyKey(claimInput(p2, 'k-shared', { requestHash: 'x' }))).toEqual({
        kind: 'claimed',
      });
    });

    it('done key, same hash: replay with the stored status and body; different hash: conflict', async () => {
      const p = partner();
      const { key, stored } = await book(store, p);
      expect(await other.claimIdempotencyKey(claimInput(p, key, { nowMs: T0 + 1000 }))).toEqual({
        kind: 'replay',
        status: 201,
        body: stored.reservation,
      });
      expect(await other.claimIdempotencyKey(claimInput(p, key, { requestHash: 'hash-b' }))).toEqual({
        kind: 'conflict',
      });
    });

    it('a replayed body keeps its key order', async () => {
      const p = partner();
      const { key, stored } = await book(store, p);
      const claim = await store.claimIdempotencyKey(claimInput(p, key));
      expect(claim.kind).toBe('replay');
      expect(claim.kind === 'replay' && JSON.stringify(claim.body)).toBe(JSON.stringify(stored.reservation));
    });

    it('forgetIdempotencyKeys forgets done keys first used at or before the moment, keeps later and in-flight ones', async () => {
      const p = partner();
      const old = await book(store, p, { createdAtMs: T0 - 10_000 });
      const recent = await book(store, p, { createdAtMs: T0 + 10_000 });
      expect(await store.claimIdempotencyKey(claimInput(p, 'in-flight-key', { nowMs: T0 - 20_000 }))).toEqual({
        kind: 'claimed',
      });
      expect(await other.forgetIdempotencyKeys(T0)).toBeGreaterThanOrEqual(1);
      expect(await store.claimIdempotencyKey(claimInput(p, old.key, { requestHash: 'hash-b', nowMs: T0 + 1 }))).toEqual(
        {
          kind: 'claimed',
        },
      );
      expect((await store.claimIdempotencyKey(claimInput(p, recent.key, { nowMs: T0 + 20_000 }))).kind).toBe('replay');
      expect(
        (await store.claimIdempotencyKey(claimInput(p, 'in-flight-key', { requestHash: 'hash-b', nowMs: T0 - 19_000 })))
          .kind,
      ).toBe('conflict');
      // The reservation itself stays: forgetting a key forgets the replay, not the rental.
      expect(await store.getReservation(p, old.stored.reservationId)).not.toBeNull();
    });

    it('purgeIdempotencyKeys deletes old done keys in batches, keeps in-flight and recent ones; a purged key is new', async () => {
      // A database of its own: the batch counts below must see no other test's keys.
      const { create } = await backend.fresh();
      const own = create();
      await own.migrate();
      const p = partner();
      const cutoff = T0 - DAY_MS;
      // Seven done keys at or before the cutoff (the last exactly at it), two after it.
      const old = [];
      for (let i = 6; i >= 0; i--) old.push(await book(own, p, { createdAtMs: cutoff - i * 1000 }));
      const recent = [await book(own, p, { createdAtMs: cutoff + 1 }), await book(own, p, { createdAtMs: T0 })];
      // An in-flight claim older than the cutoff (its request crashed long ago): never purged.
      const stale = claimInput(p, 'k-stale-in-flight', { nowMs: cutoff - 50_000 });
      expect(await own.claimIdempotencyKey(stale)).toEqual({ kind: 'claimed' });

      const batches: number[] = [];
      do batches.push(await own.purgeIdempotencyKeys(cutoff, 3));
      while (batches.at(-1) === 3);
      expect(batches).toEqual([3, 3, 1]);
      expect(await own.purgeIdempotencyKeys(cutoff, 3)).toBe(0);

      // The in-flight record is still there: another body within its window is a conflict.
      expect(await own.claimIdempotencyKey({ ...stale, nowMs: stale.nowMs + 1, requestHash: 'hash-b' })).toEqual({
        kind: 'conflict',
      });
      // Recent keys still replay; a purged key, same body and all, is a new claim (4.7.6).
      for (const { key } of recent) {
        expect((await own.claimIdempotencyKey(claimInput(p, key, { nowMs: cutoff + 2 }))).kind).toBe('replay');
      }
      const purged = old.at(-1)?.key ?? '';
      expect(await own.claimIdempotencyKey(claimInput(p, purged, { nowMs: T0 }))).toEqual({ kind: 'claimed' });
      // The new claim is in flight, dated now: a purge at the same cutoff leaves it alone.
      expect(await own.purgeIdempotencyKeys(cutoff, 3)).toBe(0);
      // The reservations stay: the purge forgets replays, not rentals.
      for (const { stored } of old) expect(await own.getReservation(p, stored.reservationId)).not.toBeNull();
    });

    it('a key older than the 24 h memory window is new (4.7.6), whatever its hash', async () => {
      const p = partner();
      const { key } = await book(store, p);
      expect((await store.claimIdempotencyKey(claimInput(p, key, { nowMs: T0 + DAY_MS - 1 }))).kind).toBe('replay');
      expect(
        (await store.claimIdempotencyKey(claimInput(p, key, { nowMs: T0 + DAY_MS - 1, requestHash: 'hash-b' }))).kind,
      ).toBe('conflict');
      expect(
        await store.claimIdempotencyKey(claimInput(p, key, { nowMs: T0 + DAY_MS, requestHash: 'hash-b' })),
      ).toEqual({ kind: 'claimed' });
      // The reset row is a fresh in-flight claim for the new body, dated now.
      expect((await store.claimIdempotencyKey(claimInput(p, key, { nowMs: T0 + DAY_MS + 1 }))).kind).toBe('conflict');
      expect(
        (await store.claimIdempotencyKey(claimInput(p, key, { nowMs: T0 + DAY_MS + 1, requestHash: 'hash-b' }))).kind,
      ).toBe('in_flight');
      expect(
        (await store.claimIdempotencyKey(claimInput(p, key, { nowMs: T0 + 2 * DAY_MS - 1, requestHash: 'hash-c' })))
          .kind,
      ).toBe('conflict');
    });

    it('an in-flight claim whose lease lapsed is taken over (same hash), keeping its creation time', async () => {
      const p = partner();
      const key = 'k-lease-1';
      expect((await store.claimIdempotencyKey(claimInput(p, key))).kind).toBe('claimed');
      expect((await store.claimIdempotencyKey(claimInput(p, key, { nowMs: T0 + LEASE_MS - 1 }))).kind).toBe(
        'in_flight',
      );
      expect(
        (await other.claimIdempotencyKey(claimInput(p, key, { nowMs: T0 + LEASE_MS, claimToken: 'token-b' }))).kind,
      ).toBe('claimed');
      // The new holder has a fresh lease.
      expect((await store.claimIdempotencyKey(claimInput(p, key, { nowMs: T0 + LEASE_MS + 1 }))).kind).toBe(
        'in_flight',
      );
      // The lapsed holder can neither complete (no second reservation) nor release the new holder's claim.
      const lapsed = makeReservation(p);
      expect(
        await store.completeReservation({
          partnerId: p,
          key,
          claimToken: 'token-a',
          reservation: lapsed,
          responseStatus: 201,
          responseBody: 0,
        }),
      ).toEqual({ kind: 'claim_lost' });
      expect(await store.getReservationById(lapsed.reservationId)).toBeNull();
      await store.releaseIdempotencyKey(p, key, 'token-a');
      expect((await store.claimIdempotencyKey(claimInput(p, key, { nowMs: T0 + LEASE_MS + 2 }))).kind).toBe(
        'in_flight',
      );
      const stored = makeReservation(p);
      expect(
        await other.completeReservation({
          partnerId: p,
          key,
          claimToken: 'token-b',
          reservation: stored,
          responseStatus: 201,
          responseBody: 1,
        }),
      ).toEqual({ kind: 'created' });
      expect(
        await store.completeReservation({
          partnerId: p,
          key,
          claimToken: 'token-a',
          reservation: lapsed,
          responseStatus: 201,
          responseBody: 0,
        }),
      ).toEqual({ kind: 'claim_lost' });
      expect((await store.claimIdempotencyKey(claimInput(p, key, { nowMs: T0 + DAY_MS - 1 }))).kind).toBe('replay');
      // The window counts from the first claim, not from the takeover.
      expect((await store.claimIdempotencyKey(claimInput(p, key, { nowMs: T0 + DAY_MS }))).kind).toBe('claimed');
    });

    it('an in-flight claim for another body stays a conflict after its lease lapsed', async () => {
      const p = partner();
      expect((await store.claimIdempotencyKey(claimInput(p, 'k-lease-2'))).kind).toBe('claimed');
      const late = claimInput(p, 'k-lease-2', { nowMs: T0 + LEASE_MS * 10, requestHash: 'hash-b' });
      expect(await store.claimIdempotencyKey(late)).toEqual({ kind: 'conflict' });
    });

    it('release gives an in-flight key back; a done key is never released', async () => {
      const p = partner();
      expect((await store.claimIdempotencyKey(claimInput(p, 'k-release'))).kind).toBe('claimed');
      await other.releaseIdempotencyKey(p, 'k-release', 'token-a');
      expect(await store.claimIdempotencyKey(claimInput(p, 'k-release', { requestHash: 'hash-b' }))).toEqual({
        kind: 'claimed',
      });

      const { key } = await book(store, p);
      await store.releaseIdempotencyKey(p, key, 'token-a');
      expect((await store.claimIdempotencyKey(claimInput(p, key))).kind).toBe('replay');
      await store.releaseIdempotencyKey(p, 'k-never-claimed', 'token-a');
      // Only the claim's own token releases it.
      expect((await store.claimIdempotencyKey(claimInput(p, 'k-release-2'))).kind).toBe('claimed');
      await store.releaseIdempotencyKey(p, 'k-release-2', 'token-other');
      expect((await store.claimIdempotencyKey(claimInput(p, 'k-release-2', { nowMs: T0 + 1 }))).kind).toBe('in_flight');
    });

    it('50 concurrent identical claims from two instances: exactly one claimed, the rest in_flight', async () => {
      const p = partner();
      const outcomes = await Promise.all(
        Array.from({ length: 50 }, (_, i) => (i % 2 ? store : other).claimIdempotencyKey(claimInput(p, 'k-race'))),
      );
      const kinds = outcomes.map((o) => o.kind);
      expect(kinds.filter((k) => k === 'claimed')).toHaveLength(1);
      expect(kinds.filter((k) => k === 'in_flight')).toHaveLength(49);
    });

    it('concurrent takeovers of a lapsed lease: exactly one claimed', async () => {
      const p = partner();
      expect((await store.claimIdempotencyKey(claimInput(p, 'k-race-2'))).kind).toBe('claimed');
      const later = claimInput(p, 'k-race-2', { nowMs: T0 + LEASE_MS + 5 });
      const outcomes = await Promise.all(
        Array.from({ length: 20 }, (_, i) => (i % 2 ? store : other).claimIdempotencyKey(later)),
      );
      expect(outcomes.filter((o) => o.kind === 'claimed')).toHaveLength(1);
      expect(outcomes.filter((o) => o.kind === 'in_flight')).toHaveLength(19);
    });
  });

  describe('completeReservation and reads (spec 4.7 to 4.9)', () => {
    it('stores the reservation and makes it readable by its partner only', async () => {
      const [p, stranger] = [partner(), partner()];
      const { stored } = await book(store, p, { moneyAttached: false });
      expect(await other.getReservation(p, stored.reservationId)).toEqual(stored);
      expect(await other.getReservation(stranger, stored.reservationId)).toBeNull();
      expect(await other.getReservationById(stored.reservationId)).toEqual(stored);
      expect(await store.getReservation(p, 'R-missing')).toBeNull();
      expect(await store.getReservationById('R-missing')).toBeNull();
    });

    it('partnerReferenceExists is per partner', async () => {
      const [p, stranger] = [partner(), partner()];
      const { stored } = await book(store, p, { partnerReference: 'shared-ref' });
      expect(stored.reservation.partnerReference).toBe('shared-ref');
      expect(await store.partnerReferenceExists(p, 'shared-ref')).toBe(true);
      expect(await store.partnerReferenceExists(stranger, 'shared-ref')).toBe(false);
      expect(await store.partnerReferenceExists(p, 'other-ref')).toBe(false);
      // Another partner may use the same reference.
      await book(other, stranger, { partnerReference: 'shared-ref' });
      expect(await store.partnerReferenceExists(stranger, 'shared-ref')).toBe(true);
    });

    it('a partnerReference reused under another key: duplicate, nothing written, key still claimed', async () => {
      const p = partner();
      await book(store, p, { partnerReference: 'dup-ref' });
      const second = makeReservation(p, { partnerReference: 'dup-ref' });
      expect((await other.claimIdempotencyKey(claimInput(p, 'k-dup-2'))).kind).toBe('claimed');
      const result = await other.completeReservation({
        partnerId: p,
        key: 'k-dup-2',
        claimToken: 'token-a',
        reservation: second,
        responseStatus: 201,
        responseBody: second.reservation,
      });
      expect(result).toEqual({ kind: 'duplicate_partner_reference' });
      expect(await store.getReservationById(second.reservationId)).toBeNull();
      expect(await store.listReservations(p, 100)).toHaveLength(1);
      expect((await store.claimIdempotencyKey(claimInput(p, 'k-dup-2', { nowMs: T0 + 1 }))).kind).toBe('in_flight');
      await other.releaseIdempotencyKey(p, 'k-dup-2', 'token-a');
      expect((await store.claimIdempotencyKey(claimInput(p, 'k-dup-2'))).kind).toBe('claimed');
    });

    it('concurrent bookings with one partnerReference: exactly one created', async () => {
      const p = partner();
      const attempts = Array.from({ length: 10 }, () => makeReservation(p, { partnerReference: 'race-ref' }));
      for (const [i] of attempts.entries()) {
        expect((await store.claimIdempotencyKey(claimInput(p, `k-ref-race-${i}`))).kind).toBe('claimed');
      }
      const results = await Promise.all(
        attempts.map((reservation, i) =>
          (i % 2 ? store : other).completeReservation({
            partnerId: p,
            key: `k-ref-race-${i}`,
            claimToken: 'token-a',
            reservation,
            responseStatus: 201,
            responseBody: reservation.reservation,
          }),
        ),
      );
      expect(results.filter((r) => r.kind === 'created')).toHaveLength(1);
      expect(results.filter((r) => r.kind === 'duplicate_partner_reference')).toHaveLength(9);
      expect(await store.listReservations(p, 100)).toHaveLength(1);
    });

    it('bookings completed together, each answered for itself: created, claim lost, reference taken in the group', async () => {
      const p = partner();
      const complete = (target: Store, key: string, reservation: StoredReservation, claimToken = 'token-a') =>
        target.completeReservation({
          partnerId: p,
          key,
          claimToken,
          reservation,
          responseStatus: 201,
          responseBody: reservation.reservation,
        });
      const keys = Array.from({ length: 8 }, (_, i) => `k-group-${i}`);
      // Claimed in one turn: concurrent claims of distinct keys, and of one key twice (one wins).
      const claims = await Promise.all([
        ...keys.map((key) => store.claimIdempotencyKey(claimInput(p, key))),
        store.claimIdempotencyKey(claimInput(p, keys[0] as string, { claimToken: 'token-b' })),
      ]);
      expect(claims.map((c) => c.kind)).toEqual([...keys.map(() => 'claimed'), 'in_flight']);
      const reservations = keys.map((_, i) =>
        makeReservation(p, { partnerReference: i === 3 || i === 4 ? 'group-ref' : `group-ref-${i}` }),
      );
      const results = await Promise.all(
        keys.map((key, i) =>
          complete(store, key, reservations[i] as StoredReservation, i === 6 ? 'token-stale' : 'token-a'),
        ),
      );
      expect(results.map((r) => r.kind)).toEqual([
        'created',
        'created',
        'created',
        'created',
        'duplicate_partner_reference',
        'created',
        'claim_lost',
        'created',
      ]);
      expect(await store.listReservations(p, 100)).toHaveLength(6);
      expect(await store.getReservationById((reservations[4] as StoredReservation).reservationId)).toBeNull();
      expect(await store.getReservationById((reservations[6] as StoredReservation).reservationId)).toBeNull();
      // Done keys replay their own answer; the lost and the duplicate ones are still in flight.
      const again = await Promise.all(
        keys.map((key) => other.claimIdempotencyKey(claimInput(p, key, { nowMs: T0 + 1 }))),
      );
      expect(again.map((c) => c.kind)).toEqual([
        'replay',
        'replay',
        'replay',
        'replay',
        'in_flight',
        'replay',
        'in_flight',
        'replay',
      ]);
      expect(again[5]).toMatchObject({
        kind: 'replay',
        status: 201,
        body: (reservations[5] as StoredReservation).reservation,
      });
    });

    it('text a database may refuse (NUL, lone surrogates) in a reference, an id or a reason is stored and found', async () => {
      const p = partner();
      const odd = ['nul\u0000ref', 'lone\uD800', '\u0001marker'];
      for (const reference of odd) {
        const { stored } = await book(store, p, { partnerReference: reference });
        expect(await other.getReservation(p, stored.reservationId)).toEqual(stored);
        expect(await other.partnerReferenceExists(p, reference)).toBe(true);
        const again = makeReservation(p, { partnerReference: reference });
        expect((await store.claimIdempotencyKey(claimInput(p, `k-odd-${reference}`))).kind).toBe('claimed');
        const duplicate = await store.completeReservation({
          partnerId: p,
          key: `k-odd-${reference}`,
          claimToken: 'token-a',
          reservation: again,
          responseStatus: 201,
          responseBody: again.reservation,
        });
        expect(duplicate).toEqual({ kind: 'duplicate_partner_reference' });
      }
      expect(await store.partnerReferenceExists(p, 'nul')).toBe(false);
      for (const id of odd) {
        expect(await store.getReservation(p, id)).toBeNull();
        expect(await store.getReservationById(id)).toBeNull();
        expect(await store.setMoneyAttached(id, true)).toBe(false);
      }
      const { stored } = await book(store, p);
      const alert = {
        alertId: `A-${randomUUID()}`,
        kind: 'cancellation_needs_staff' as const,
        reservationId: stored.reservationId,
        partnerId: p,
        reason: 'reason with \u0000 and \uDC00',
        createdAtMs: T0,
      };
      await store.recordStaffAlert(alert);
      expect((await other.listStaffAlerts()).filter((a) => a.partnerId === p)).toEqual([alert]);
    });

    it('reservations without a partnerReference never collide', async () => {
      const p = partner();
      await book(store, p, { partnerReference: null });
      await book(store, p, { partnerReference: null });
      const list = await store.listReservations(p, 10);
      expect(list.map((r) => r.reservation.partnerReference)).toEqual([null, null]);
    });

    it('lists the partner’s own reservations newest first, ties in insertion order, up to the limit', async () => {
      const [p, stranger] = [partner(), partner()];
      const a = await book(store, p, { createdAtMs: T0 + 1000 });
      const b = await book(other, p, { createdAtMs: T0 + 3000 });
      const c = await book(store, p, { createdAtMs: T0 + 2000 });
      const d = await book(other, p, { createdAtMs: T0 + 3000 });
      await book(store, stranger, { createdAtMs: T0 + 9000 });
      const ids = (await store.listReservations(p, 100)).map((r) => r.reservationId);
      expect(ids).toEqual([d, b, c, a].map((x) => x.stored.reservationId));
      expect((await store.listReservations(p, 2)).map((r) => r.reservationId)).toEqual(ids.slice(0, 2));
      expect(await store.listReservations(p, 0)).toEqual([]);
      expect(await store.listReservations(partner(), 25)).toEqual([]);
    });
  });

  describe('transitions and money (spec 3, 4.11)', () => {
    it('compare-and-set: applies only from the given states and keeps the document in step', async () => {
      const p = partner();
      const { stored } = await book(store, p);
      const done = await other.transitionReservation(stored.reservationId, ['confirmed', 'pending'], 'cancelled');
      expect(done?.changed).toBe(true);
      expect(done?.reservation.reservation.status).toBe('cancelled');
      expect(done?.reservation.reservation).toEqual({ ...stored.reservation, status: 'cancelled' });
      expect((await store.getReservation(p, stored.reservationId))?.reservation.status).toBe('cancelled');

      const again = await store.transitionReservation(stored.reservationId, ['confirmed'], 'in_progress');
      expect(again).toEqual({ changed: false, reservation: done?.reservation });
      expect(await store.transitionReservation('R-missing', ['confirmed'], 'cancelled')).toBeNull();
    });

    it('onlyWithoutMoney: money attached by another instance stops the transition', async () => {
      const p = partner();
      const { stored } = await book(store, p);
      expect(await other.setMoneyAttached(stored.reservationId, true)).toBe(true);
      const refused = await store.transitionReservation(stored.reservationId, ['confirmed'], 'cancelled', {
        onlyWithoutMoney: true,
      });
      expect(refused?.changed).toBe(false);
      expect(refused?.reservation.moneyAttached).toBe(true);
      expect((await store.getReservation(p, stored.reservationId))?.reservation.status).toBe('confirmed');
      expect(await other.setMoneyAttached(stored.reservationId, false)).toBe(true);
      const applied = await store.transitionReservation(stored.reservationId, ['confirmed'], 'cancelled', {
        onlyWithoutMoney: true,
      });
      expect(applied?.changed).toBe(true);
    });

    it('concurrent transitions from two instances: exactly one applies', async () => {
      const { stored } = await book(store, partner());
      const results = await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          (i % 2 ? store : other).transitionReservation(stored.reservationId, ['confirmed'], 'cancelled'),
        ),
      );
      expect(results.filter((r) => r?.changed)).toHaveLength(1);
      expect(results.every((r) => r?.reservation.reservation.status === 'cancelled')).toBe(true);
    });

    it('setMoneyAttached marks a reservation; unknown ids answer false', async () => {
      const p = partner();
      const { stored } = await book(store, p);
      expect(await store.setMoneyAttached(stored.reservationId, true)).toBe(true);
      expect((await other.getReservation(p, stored.reservationId))?.moneyAttached).toBe(true);
      expect(await other.setMoneyAttached(stored.reservationId, false)).toBe(true);
      expect((await store.getReservation(p, stored.reservationId))?.moneyAttached).toBe(false);
      expect(await store.setMoneyAttached('R-missing', true)).toBe(false);
    });

    it('staff alerts are recorded and listed oldest first', async () => {
      const p = partner();
      const { stored } = await book(store, p);
      const alert = (createdAtMs: number, reason: string) => ({
        alertId: `A-${randomUUID()}`,
        kind: 'cancellation_needs_staff' as const,
        reservationId: stored.reservationId,
        partnerId: p,
        reason,
        createdAtMs,
      });
      const late = alert(T0 + 2000, 'second');
      const early = alert(T0 + 1000, 'first');
      await store.recordStaffAlert(late);
      await other.recordStaffAlert(early);
      const mine = (await store.listStaffAlerts()).filter((a) => a.partnerId === p);
      expect(mine).toEqual([early, late]);
    });
  });

  describe('control state', () => {
    it('starts from the defaults on a new database', async () => {
      const fresh = (await backend.fresh()).create();
      await fresh.migrate();
      expect(await fresh.getControlState()).toEqual(DEFAULT_CONTROL_STATE);
      expect(await fresh.takeDeclineNextBooking()).toBe(false);
    });

    it('updates are read-modify-write and visible to every instance', async () => {
      const next = await store.updateControlState((s) => ({
        ...s,
        apiDisabled: true,
        disabledPartnerIds: ['p-1'],
        priceMovesPercent: { CDMR: 10 },
        clockOffsetMs: 0,
      }));
      expect(next).toMatchObject({ apiDisabled: true, disabledPartnerIds: ['p-1'], priceMovesPercent: { CDMR: 10 } });
      expect(await other.getControlState()).toEqual(next);
      await other.updateControlState(() => ({ ...DEFAULT_CONTROL_STATE }));
      expect(await store.getControlState()).toEqual(DEFAULT_CONTROL_STATE);
    });

    it('a read made after a change sees it, even while reads made before it are in flight (shared reads)', async () => {
      await store.updateControlState((s) => ({ ...s, clockOffsetMs: 0 }));
      for (let round = 1; round <= 5; round++) {
        const before = Array.from({ length: 8 }, () => store.getControlState());
        await other.updateControlState((s) => ({ ...s, clockOffsetMs: round * 1000 }));
        const after = Array.from({ length: 8 }, () => store.getControlState());
        for (const state of await Promise.all(after)) expect(state.clockOffsetMs).toBe(round * 1000);
        for (const state of await Promise.all(before))
          expect([(round - 1) * 1000, round * 1000]).toContain(state.clockOffsetMs);
      }
      const shared = await store.getControlState();
      expect(Object.isFrozen(shared)).toBe(true);
      await store.updateControlState((s) => ({ ...s, clockOffsetMs: 0 }));
    });

    it('concurrent increments from two instances lose nothing', async () => {
      await store.updateControlState((s) => ({ ...s, clockOffsetMs: 0 }));
      await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          (i % 2 ? store : other).updateControlState((s) => ({ ...s, clockOffsetMs: s.clockOffsetMs + 1000 })),
        ),
      );
      expect((await store.getControlState()).clockOffsetMs).toBe(20_000);
    });

    it('20 concurrent takeDeclineNextBooking with 5 pending: exactly 5 true', async () => {
      await store.updateControlState((s) => ({ ...s, declineNextBookings: 5 }));
      const taken = await Promise.all(
        Array.from({ length: 20 }, (_, i) => (i % 2 ? store : other).takeDeclineNextBooking()),
      );
      expect(taken.filter(Boolean)).toHaveLength(5);
      // The row is the truth: no instance takes a sixth.
      expect(await other.takeDeclineNextBooking()).toBe(false);
      expect(await store.takeDeclineNextBooking()).toBe(false);
      // The other instance's copy may still show declines it did not take (takeDeclineNextBooking does not wait for
      // the copies, Store.getControlState): it catches up, by its watch's next renewal at the latest.
      await expect.poll(async () => (await other.getControlState()).declineNextBookings, { timeout: 20_000 }).toBe(0);
    });
  });

  describe('migrations', () => {
    it('migrate() twice is a no-op', async () => {
      const { location, create } = await backend.fresh();
      const fresh = create();
      await fresh.migrate();
      await fresh.migrate();
      expect(await recordedVersions(backend.name, location)).toEqual(MIGRATIONS.map((m) => m.version));
    });

    it('two instances migrating one new database at once both succeed', async () => {
      const { location, create } = await backend.fresh();
      const [a, b] = [create(), create()];
      await Promise.all([a.migrate(), b.migrate()]);
      expect(await recordedVersions(backend.name, location)).toEqual(MIGRATIONS.map((m) => m.version));
      // Both are usable.
      expect(await a.getOrCreateSecret('s', () => 'x')).toBe(await b.getOrCreateSecret('s', () => 'y'));
    });
  });
});

/** Versions recorded in schema_migrations, read over a connection of its own. */
async function recordedVersions(kind: Store['kind'], location: string): Promise<number[]> {
  if (kind === 'sqlite') {
    const db = new Database(location, { readonly: true });
    try {
      return db.prepare('SELECT version FROM schema_migrations ORDER BY version').pluck().all() as number[];
    } finally {
      db.close();
    }
  }
  const client = new pg.Client({ connectionString: location });
  await client.connect();
  try {
    const { rows } = await client.query<{ version: number }>('SELECT version FROM schema_migrations ORDER BY version');
    return rows.map((r) => r.version);
  } finally {
    await client.end();
  }
}

describe('migration runners', () => {
  let dir = '';
  let database = '';
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'store-migrate-'));
    database = `store_test_${randomUUID().replaceAll('-', '').slice(0, 16)}`;
    await adminQuery(`CREATE DATABASE ${database}`);
  });
  afterAll(async () => {
    rmSync(dir, { recursive: true, force: true });
    await adminQuery(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
  });

  it('SQLite: the first run applies every step and records when; the second applies none', () => {
    const db = new Database(join(dir, 'm.db'));
    try {
      expect(migrateSqlite(db)).toEqual(MIGRATIONS.map((m) => m.version));
      const before = db.prepare('SELECT version, applied_at FROM schema_migrations').all();
      expect(migrateSqlite(db)).toEqual([]);
      expect(db.prepare('SELECT version, applied_at FROM schema_migrations').all()).toEqual(before);
    } finally {
      db.close();
    }
  });

  it('PostgreSQL: concurrent runners apply each step exactly once; a later run applies none', async () => {
    const pools = [
      new pg.Pool({ connectionString: pgUrl(database) }),
      new pg.Pool({ connectionString: pgUrl(database) }),
    ];
    const ends = pools.map(closeFully);
    try {
      const applied = await Promise.all(pools.flatMap((pool) => [migratePostgres(pool), migratePostgres(pool)]));
      expect(applied.flat().sort()).toEqual(MIGRATIONS.map((m) => m.version));
      const [first] = pools as [pg.Pool, pg.Pool];
      const before = (await first.query('SELECT version, applied_at FROM schema_migrations')).rows;
      expect(before).toHaveLength(MIGRATIONS.length);
      expect(await migratePostgres(first)).toEqual([]);
      expect((await first.query('SELECT version, applied_at FROM schema_migrations')).rows).toEqual(before);
    } finally {
      await Promise.all(ends.map((end) => end()));
    }
  });
});

describe('SQLite file and durability', () => {
  let dir = '';
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'store-durable-'));
  });
  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it('creates parent directories and sets WAL, synchronous FULL, busy_timeout and foreign keys', async () => {
    const path = join(dir, 'a', 'b', 'c.db');
    const store = new SqliteStore(path);
    try {
      expect(existsSync(path)).toBe(true);
      const db = store.database;
      expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
      expect(db.pragma('synchronous', { simple: true })).toBe(2);
      expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
      expect(db.pragma('busy_timeout', { simple: true })).toBeGreaterThan(0);
      await store.migrate();
      // Foreign keys are enforced: an alert must name an existing reservation.
      await expect(
        store.recordStaffAlert({
          alertId: 'A-1',
          kind: 'cancellation_needs_staff',
          reservationId: 'R-missing',
          partnerId: 'p',
          reason: 'x',
          createdAtMs: T0,
        }),
      ).rejects.toThrow(/FOREIGN KEY/);
    } finally {
      await store.close();
    }
  });

  it('every reservation reported as completed survives SIGKILL of the writing process', async () => {
    const path = join(dir, 'durable', 'store.db');
    const repoRoot = resolve(import.meta.dirname, '..', '..');
    const child = spawn(process.execPath, ['--import', 'tsx', join(import.meta.dirname, 'durability-child.ts'), path], {
      cwd: repoRoot,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const exited = new Promise<NodeJS.Signals | null>((resolveExit) =>
      child.on('exit', (_, signal) => resolveExit(signal)),
    );
    const reported: { reservationId: string; key: string }[] = [];
    const lines = createInterface({ input: child.stdout });
    for await (const line of lines) {
      const [word, reservationId, key] = line.split(' ');
      if (word === 'completed' && reservationId && key) reported.push({ reservationId, key });
      if (reported.length === 40) child.kill('SIGKILL');
    }
    expect(await exited, stderr).toBe('SIGKILL');
    expect(reported.length).toBeGreaterThanOrEqual(40);

    const reopened = new SqliteStore(path);
    try {
      await reopened.migrate();
      for (const { reservationId, key } of reported) {
        const found = await reopened.getReservation('durability-partner', reservationId);
        expect(found?.reservationId).toBe(reservationId);
        const claim = await reopened.claimIdempotencyKey({
          partnerId: 'durability-partner',
          key,
          requestHash: `hash-${key.split('-').at(-1)}`,
          nowMs: found?.createdAtMs ?? 0,
          leaseMs: LEASE_MS,
          retentionMs: DAY_MS,
          claimToken: 'token-reopened',
        });
        expect(claim.kind).toBe('replay');
      }
    } finally {
      await reopened.close();
    }
  });
  it('several processes on one file: claims, declines and updates stay atomic (BEGIN IMMEDIATE, busy_timeout)', async () => {
    const path = join(dir, 'contended', 'store.db');
    const setup = new SqliteStore(path);
    await setup.migrate();
    await setup.updateControlState((s) => ({ ...s, declineNextBookings: 30, clockOffsetMs: 0 }));
    const children = Array.from({ length: 3 }, () =>
      spawn(process.execPath, ['--import', 'tsx', join(import.meta.dirname, 'contention-child.ts'), path, '20'], {
        cwd: resolve(import.meta.dirname, '..', '..'),
        stdio: ['pipe', 'pipe', 'pipe'],
      }),
    );
    try {
      const outputs = children.map((child) => {
        let stderr = '';
        child.stderr?.on('data', (chunk: Buffer) => {
          stderr += chunk.toString();
        });
        const lines = createInterface({ input: child.stdout });
        const ready = new Promise<void>((resolveReady, rejectReady) => {
          lines.once('line', (line) => (line === 'ready' ? resolveReady() : rejectReady(new Error(line))));
          child.once('exit', () => rejectReady(new Error(`child exited before ready: ${stderr}`)));
        });
        const tally = new Promise<{ claimed: number; inFlight: number; declined: number }>(
          (resolveTally, rejectTally) => {
            lines.on('line', (line) => {
              if (line.startsWith('{')) resolveTally(JSON.parse(line));
            });
            child.once('exit', (code) => rejectTally(new Error(`child exited (${code}) without a tally: ${stderr}`)));
          },
        );
        return { ready, tally };
      });
      await Promise.all(outputs.map((o) => o.ready));
      for (const child of children) child.stdin?.end('go\n');
      const tallies = await Promise.all(outputs.map((o) => o.tally));
      const sum = (field: 'claimed' | 'inFlight' | 'declined') => tallies.reduce((n, t) => n + t[field], 0);
      expect(sum('claimed')).toBe(1);
      expect(sum('inFlight')).toBe(59);
      expect(sum('declined')).toBe(30);
      expect(await setup.getControlState()).toMatchObject({ declineNextBookings: 0, clockOffsetMs: 60 });
    } finally {
      for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
      await setup.close();
    }
  });
});

describe('openStore', () => {
  it('reads PostgreSQL URLs, sqlite: URLs, plain paths and :memory:', () => {
    expect(parseStoreUrl('postgres://u:p@h/db')).toEqual({ kind: 'postgres', url: 'postgres://u:p@h/db' });
    expect(parseStoreUrl('postgresql://h/db')).toEqual({ kind: 'postgres', url: 'postgresql://h/db' });
    expect(parseStoreUrl('sqlite:/var/lib/x.db')).toEqual({ kind: 'sqlite', path: '/var/lib/x.db' });
    expect(parseStoreUrl('sqlite:///var/lib/x.db')).toEqual({ kind: 'sqlite', path: '/var/lib/x.db' });
    expect(parseStoreUrl('sqlite:data/x.db')).toEqual({ kind: 'sqlite', path: 'data/x.db' });
    expect(parseStoreUrl('./data/x.db')).toEqual({ kind: 'sqlite', path: './data/x.db' });
    expect(parseStoreUrl('/tmp/x.db')).toEqual({ kind: 'sqlite', path: '/tmp/x.db' });
    expect(parseStoreUrl(':memory:')).toEqual({ kind: 'sqlite', path: ':memory:' });
  });

  it('refuses other forms, naming the accepted ones and never echoing the URL', async () => {
    const attempt = openStore('mysql://admin:s3cr3t-pw@db.example.com/app');
    await expect(attempt).rejects.toThrow(/mysql:.*postgres:\/\/.*sqlite:/);
    await expect(attempt).rejects.not.toThrow(/s3cr3t-pw|admin|db\.example/);
    await expect(openStore('')).rejects.toThrow(/empty/);
    await expect(openStore('sqlite:')).rejects.toThrow(/no file path/);
  });

  it('opens a migrated store of the right kind', async () => {
    const memory = await openStore(':memory:');
    try {
      expect(memory.kind).toBe('sqlite');
      expect(await memory.getControlState()).toEqual(DEFAULT_CONTROL_STATE);
    } finally {
      await memory.close();
    }
    const database = `store_test_${randomUUID().replaceAll('-', '').slice(0, 16)}`;
    await adminQuery(`CREATE DATABASE ${database}`);
    try {
      const remote = await openStore(pgUrl(database));
      expect(remote.kind).toBe('postgres');
      expect(await remote.getControlState()).toEqual(DEFAULT_CONTROL_STATE);
      await remote.close();
    } finally {
      await adminQuery(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
    }
  });
});

describe('PostgreSQL completion against a transaction holding the key row', () => {
  let database = '';
  let store: PostgresStore;
  let holder: pg.Client;
  beforeAll(async () => {
    database = `store_test_${randomUUID().replaceAll('-', '').slice(0, 16)}`;
    await adminQuery(`CREATE DATABASE ${database}`);
    store = new PostgresStore(pgUrl(database));
    await store.migrate();
    holder = new pg.Client({ connectionString: pgUrl(database) });
    await holder.connect();
  });
  afterAll(async () => {
    await holder.end();
    await store.close();
    await adminQuery(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
  });

  /**
   * Waits until some session of this database waits for a row lock (the completion under test). The bound (at least
   * 20 s: 400 polls 50 ms apart) only ends a completion that never comes; a busy machine takes its time to send it.
   */
  async function completionWaits(): Promise<void> {
    for (let i = 0; i < 400; i++) {
      const { rowCount } = await holder.query(
        "SELECT 1 FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'",
      );
      if (rowCount) return;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error('the completion never waited for the row lock');
  }

  /** Claims a key, locks its row in another transaction, runs `change` there, starts the completion, commits. */
  async function completeWhileHeld(key: string, change: string) {
    expect((await store.claimIdempotencyKey(claimInput('p-held', key))).kind).toBe('claimed');
    const reservation = makeReservation('p-held');
    await holder.query('BEGIN');
    await holder.query('SELECT 1 FROM idempotency_keys WHERE idempotency_key = $1 FOR UPDATE', [key]);
    if (change) await holder.query(change, [key]);
    const completion = store.completeReservation({
      partnerId: 'p-held',
      key,
      claimToken: 'token-a',
      reservation,
      responseStatus: 201,
      responseBody: reservation.reservation,
    });
    await completionWaits();
    await holder.query('COMMIT');
    return { result: await completion, stored: await store.getReservationById(reservation.reservationId) };
  }

  it('a takeover committed while the completion waited: claim lost, nothing stored', async () => {
    const { result, stored } = await completeWhileHeld(
      'k-held-takeover',
      "UPDATE idempotency_keys SET claim_token = 'token-b' WHERE idempotency_key = $1",
    );
    expect(result).toEqual({ kind: 'claim_lost' });
    expect(stored).toBeNull();
  });

  it('a release committed while the completion waited: claim lost, nothing stored', async () => {
    const { result, stored } = await completeWhileHeld(
      'k-held-release',
      'DELETE FROM idempotency_keys WHERE idempotency_key = $1',
    );
    expect(result).toEqual({ kind: 'claim_lost' });
    expect(stored).toBeNull();
  });

  it('a lock released without a change: the completion goes ahead and the key replays', async () => {
    const { result, stored } = await completeWhileHeld('k-held-read', '');
    expect(result).toEqual({ kind: 'created' });
    expect(stored).not.toBeNull();
    const replay = await store.claimIdempotencyKey(claimInput('p-held', 'k-held-read', { nowMs: T0 + 1 }));
    expect(replay).toMatchObject({ kind: 'replay', status: 201 });
  });
});
