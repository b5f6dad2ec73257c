import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Reservation } from '../../contract/types.ts';
import { createPostgresDatabase, createSqliteDatabase, type TestDatabase } from '../testing/databases.ts';
import { openStore } from './index.ts';
import { seedReservations } from './seed.ts';
import type { Store } from './types.ts';

const T0 = Date.UTC(2030, 0, 1);

function template(): Reservation {
  return {
    reservationId: `RSV-${randomUUID()}`,
    partnerReference: 'TEMPLATE-1',
    rocketBookingCode: 'RKT-ABCDEFGH',
    status: 'confirmed',
    vehicleCode: 'TOYOTA-VIOS-AT',
    pickupLocation: 'SGN-APT-01',
    dropoffLocation: 'HCM-D1',
    pickupDateTime: '2030-03-01T10:00:00',
    dropoffDateTime: '2030-03-04T10:00:00',
    rentalDays: 3,
    currency: 'VND',
    total: { currency: 'VND', amount: 2_400_000, exponent: 0, display: '2.400.000 ₫' },
    commission: null,
    securityDeposit: { currency: 'VND', amount: 5_000_000, exponent: 0, display: '5.000.000 ₫' },
    driver: { firstName: 'Lan', lastName: 'Nguyen', email: 'lan.nguyen@example.com' },
    accountCode: null,
    rateCode: null,
    createdAt: new Date(T0).toISOString(),
  };
}

describe.each(['sqlite', 'postgres'] as const)('seedReservations (bench scale rows): %s', (kind) => {
  let db: TestDatabase;
  let store: Store;
  const first = template();

  beforeAll(async () => {
    db = kind === 'sqlite' ? createSqliteDatabase() : await createPostgresDatabase('seed');
    store = await openStore(db.url);
    await store.claimIdempotencyKey({
      partnerId: 'PARTNER-A',
      key: 'k-template',
      requestHash: 'h',
      nowMs: T0,
      leaseMs: 30_000,
      retentionMs: 86_400_000,
      claimToken: 't',
    });
    await store.completeReservation({
      partnerId: 'PARTNER-A',
      key: 'k-template',
      claimToken: 't',
      reservation: {
        reservationId: first.reservationId,
        partnerId: 'PARTNER-A',
        reservation: first,
        moneyAttached: false,
        createdAtMs: T0,
      },
      responseStatus: 201,
      responseBody: first,
    });
  });
  afterAll(async () => {
    await store?.close();
    await db?.drop();
  });

  it('adds variations of the template, older than it, mostly the owner’s, readable through the Store', async () => {
    const result = await seedReservations(db.url, { templateId: first.reservationId, count: 1000, chunk: 300 });
    expect(result.seeded).toBe(1000);
    expect(result.sampleIds.length).toBeGreaterThan(100);

    // The template stays the owner's newest; seeded rows follow, 30 s apart.
    const page = await store.listReservations('PARTNER-A', 100);
    expect(page[0]?.reservationId).toBe(first.reservationId);
    expect(page[1]?.createdAtMs).toBe(T0 - 30_000);
    expect(new Set(page.map((r) => r.reservationId)).size).toBe(100);
    // 60 of every 100 rows are the owner's; the rest go to the other partners that may book.
    const owner = await store.listReservations('PARTNER-A', 1000);
    expect(owner.length).toBe(601);
    expect((await store.listReservations('PARTNER-B', 1000)).length).toBeGreaterThan(50);

    const sampled = await store.getReservation('PARTNER-A', result.sampleIds.at(-1) ?? '');
    expect(sampled).not.toBeNull();
    const doc = sampled?.reservation as Reservation;
    expect(doc.reservationId).toBe(sampled?.reservationId);
    expect(new Date(doc.createdAt).getTime()).toBe(sampled?.createdAtMs);
    expect(Object.keys(doc)).toEqual(Object.keys(first));
    expect(doc.rocketBookingCode).toMatch(/^RKT-[0-9A-Z]{8}$/);
    // Statuses vary, the column in step with the document.
    const statuses = new Set(owner.map((r) => r.reservation.status));
    expect(statuses).toEqual(new Set(['confirmed', 'cancelled', 'completed']));
  });

  it('a second call continues the numbering: older rows, no clash of partner references', async () => {
    await seedReservations(db.url, { templateId: first.reservationId, count: 500, from: 1000 });
    const owner = await store.listReservations('PARTNER-A', 2000);
    expect(owner.length).toBe(601 + 300);
    expect(owner.at(-1)?.createdAtMs).toBeLessThan(T0 - 1000 * 30_000);
  });
});
