import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import Database from 'better-sqlite3';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { parseStoreUrl } from '../store/index.ts';
import { SqliteStore } from '../store/sqlite.ts';
import type { ControlState, Store } from '../store/types.ts';
import { newIdempotencyKey, PartnerApiClient, quoteRequest, reservationBody } from '../testing/booking-helpers.ts';
import { startTestServer, type TestServer } from '../testing/test-server.ts';
import { IdempotencyPurge, PURGE_GRACE_MS } from './idempotency-purge.ts';
import { IDEMPOTENCY_RETENTION_MS } from './reservations.ts';

const HOUR_MS = 3_600_000;

/** A done key first used at `createdAtMs` (claimed and completed with a reservation of its own). */
async function doneKey(store: Store, partnerId: string, key: string, createdAtMs: number): Promise<void> {
  const claim = {
    partnerId,
    key,
    requestHash: 'hash',
    nowMs: createdAtMs,
    leaseMs: 30_000,
    retentionMs: IDEMPOTENCY_RETENTION_MS,
    claimToken: 'token',
  };
  expect(await store.claimIdempotencyKey(claim)).toEqual({ kind: 'claimed' });
  const reservation = { reservationId: `RSV-${key}`, partnerReference: null, status: 'confirmed' } as never;
  const completed = await store.completeReservation({
    partnerId,
    key,
    claimToken: 'token',
    reservation: { reservationId: `RSV-${key}`, partnerId, reservation, moneyAttached: false, createdAtMs },
    responseStatus: 201,
    responseBody: reservation,
  });
  expect(completed).toEqual({ kind: 'created' });
}

/** A store whose every purge call deletes a full batch (an endless backlog), recording the calls. */
function backlogStore(batches: string[]): Store {
  return {
    getControlState: async () => ({ clockOffsetMs: 0 }) as ControlState,
    purgeIdempotencyKeys: async (_cutoff: number, batchSize: number) => {
      batches.push('batch');
      return batchSize;
    },
  } as Partial<Store> as Store;
}

describe('IdempotencyPurge (spec 4.7.6: records past the 24 h memory are deleted in the background)', () => {
  let dir = '';
  let store: SqliteStore;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'purge-test-'));
    store = new SqliteStore(join(dir, 'store.db'));
    await store.migrate();
  });
  afterAll(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('counts age by the service clock, in batches, keeping in-flight and recent records', async () => {
    const now = Date.now();
    for (let i = 0; i < 5; i++) await doneKey(store, 'PARTNER-A', `old-${i}`, now - i);
    await doneKey(store, 'PARTNER-A', 'recent', now + 2 * 24 * HOUR_MS - HOUR_MS);
    const inFlight = { partnerId: 'PARTNER-A', key: 'in-flight', requestHash: 'h', nowMs: now - HOUR_MS };
    expect(
      await store.claimIdempotencyKey({
        ...inFlight,
        leaseMs: 1,
        retentionMs: IDEMPOTENCY_RETENTION_MS,
        claimToken: 't',
      }),
    ).toEqual({ kind: 'claimed' });

    const calls: number[] = [];
    const purge = new IdempotencyPurge(
      new Proxy(store, {
        get(target, name) {
          if (name !== 'purgeIdempotencyKeys') return Reflect.get(target, name, target);
          return async (cutoff: number, batch: number) => {
            const deleted = await target.purgeIdempotencyKeys(cutoff, batch);
            calls.push(deleted);
            return deleted;
          };
        },
      }),
      { intervalMs: 60_000, batchSize: 2 },
    );
    // On the wall clock nothing is a day old yet.
    expect(await purge.runOnce()).toBe(0);
    // Two days on, by the operator's clock: the five records of "now" are past the memory and its grace.
    await store.updateControlState((s) => ({ ...s, clockOffsetMs: 2 * 24 * HOUR_MS }));
    expect(await purge.cutoffMs()).toBeLessThanOrEqual(Date.now() + 2 * 24 * HOUR_MS - IDEMPOTENCY_RETENTION_MS);
    calls.length = 0;
    expect(await purge.runOnce()).toBe(5);
    expect(calls).toEqual([2, 2, 1]);

    const left = store.database.prepare('SELECT idempotency_key FROM idempotency_keys ORDER BY 1').pluck().all();
    expect(left).toEqual(['in-flight', 'recent']);
    // The reservations stay: the purge forgets replays, not rentals.
    expect(await store.getReservationById('RSV-old-0')).not.toBeNull();
  });

  it('keeps a record just past the memory for the grace, so a request that read its clock earlier still finds it', async () => {
    const offset = (await store.getControlState()).clockOffsetMs;
    const serviceNow = Date.now() + offset;
    await doneKey(store, 'PARTNER-B', 'in-grace', serviceNow - IDEMPOTENCY_RETENTION_MS - PURGE_GRACE_MS / 2);
    await new IdempotencyPurge(store, { intervalMs: 60_000, batchSize: 500 }).runOnce();
    const row = store.database.prepare("SELECT 1 FROM idempotency_keys WHERE idempotency_key = 'in-grace'").get();
    expect(row).toBeDefined();
  });

  it('gives way to other work between batches', async () => {
    const events: string[] = [];
    const store = backlogStore(events);
    const purge = new IdempotencyPurge(store, { intervalMs: 60_000, batchSize: 500 });
    setImmediate(() => events.push('request'));
    const running = purge.runOnce();
    // An endless backlog: stop after a few batches.
    while (events.filter((e) => e === 'batch').length < 4) await sleep(1);
    await purge.stop();
    await running;
    expect(events.indexOf('request')).toBeGreaterThan(0);
    expect(events.indexOf('request')).toBeLessThan(events.lastIndexOf('batch'));
  });

  it('runs on its timer until stopped; stop ends a purge in progress after its batch', async () => {
    const batches: string[] = [];
    const purge = new IdempotencyPurge(backlogStore(batches), { intervalMs: 5, batchSize: 10 });
    purge.start();
    while (batches.length < 3) await sleep(5);
    await purge.stop();
    const atStop = batches.length;
    await sleep(30);
    expect(batches).toHaveLength(atStop);
  });

  it('reports a failed purge and runs again on schedule', async () => {
    let attempts = 0;
    const errors: unknown[] = [];
    const failing = {
      getControlState: async () => ({ clockOffsetMs: 0 }) as ControlState,
      purgeIdempotencyKeys: async () => {
        attempts++;
        throw new Error('store away');
      },
    } as Partial<Store> as Store;
    const purge = new IdempotencyPurge(failing, { intervalMs: 5, batchSize: 10, onError: (e) => errors.push(e) });
    purge.start();
    while (attempts < 2) await sleep(5);
    await purge.stop();
    expect(errors.length).toBeGreaterThanOrEqual(1);
    expect((errors[0] as Error).message).toBe('store away');
  });

  it('refuses a batch size that is not a positive integer', () => {
    expect(() => new IdempotencyPurge(store, { intervalMs: 1, batchSize: 0 })).toThrow(/positive integer/);
  });
});

describe('the server runs the purge (IDEMPOTENCY_PURGE_INTERVAL_S, IDEMPOTENCY_PURGE_BATCH_SIZE)', () => {
  let server: TestServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it('a booking’s key is deleted once the service clock is a day and the grace past it; the key is then new', async () => {
    server = await startTestServer({ config: { idempotencyPurge: { intervalMs: 20, batchSize: 10 } } });
    const client = new PartnerApiClient(server.baseUrl);
    const key = newIdempotencyKey();
    const body = reservationBody(await client.quote('partnerA', quoteRequest()));
    expect((await client.book('partnerA', body, key)).status).toBe(201);
    const location = parseStoreUrl(server.databaseUrl);
    if (location.kind !== 'sqlite') throw new Error('expected the SQLite test store');
    const keys = () => {
      const db = new Database(location.path, { readonly: true });
      try {
        return db.prepare('SELECT count(*) FROM idempotency_keys').pluck().get() as number;
      } finally {
        db.close();
      }
    };
    await sleep(100);
    expect(keys()).toBe(1);
    await client.advanceClock((IDEMPOTENCY_RETENTION_MS + PURGE_GRACE_MS) / 1000 + 1);
    // Waits for the deletion itself: the purge runs every 20 ms on a quiet machine, and later on a busy one, where
    // the 5 s this waited before were a thin margin; the bound only ends a purge that never comes.
    await expect.poll(keys, { timeout: 20_000, interval: 20 }).toBe(0);
    // Absent: the same key and body is judged afresh (its quote has expired meanwhile), not replayed.
    const again = await client.book('partnerA', body, key);
    expect(again.status).toBe(409);
    expect(again.json.error.code).toBe('QUOTE_EXPIRED');
  });
});
