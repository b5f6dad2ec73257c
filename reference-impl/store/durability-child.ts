/**
 * Test helper process for the durability check in store.contract.test.ts: books reservations into the SQLite
 * file named by argv[2] one after another and prints `completed <reservationId> <key>` after each commit,
 * until the parent kills it (SIGKILL). Stops by itself after a while so it can never be left behind.
 */
import { SqliteStore } from './sqlite.ts';

const path = process.argv[2];
if (!path) throw new Error('usage: durability-child.ts <sqlite-file>');

const store = new SqliteStore(path);
await store.migrate();
const partnerId = 'durability-partner';
const deadline = Date.now() + 20_000;

for (let i = 0; Date.now() < deadline; i++) {
  const key = `durability-key-${process.pid}-${i}`;
  const reservationId = `R-${process.pid}-${i}`;
  const nowMs = Date.now();
  const claim = await store.claimIdempotencyKey({
    partnerId,
    key,
    requestHash: `hash-${i}`,
    nowMs,
    leaseMs: 30_000,
    retentionMs: 86_400_000,
    claimToken: `token-${i}`,
  });
  if (claim.kind !== 'claimed') throw new Error(`unexpected claim outcome ${claim.kind}`);
  const reservation = {
    reservationId,
    partnerReference: `ref-${process.pid}-${i}`,
    rocketBookingCode: `RB${i}`,
    status: 'confirmed' as const,
    vehicleCode: 'CDMR',
    pickupLocation: 'LIS',
    dropoffLocation: 'LIS',
    pickupDateTime: '2030-01-01T10:00:00',
    dropoffDateTime: '2030-01-03T10:00:00',
    rentalDays: 2,
    currency: 'EUR',
    total: { currency: 'EUR', amount: 10000, exponent: 2, display: '100.00 EUR' },
    commission: null,
    securityDeposit: { currency: 'EUR', amount: 50000, exponent: 2, display: '500.00 EUR' },
    driver: { firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com' },
    accountCode: null,
    rateCode: null,
    createdAt: new Date(nowMs).toISOString(),
  };
  const result = await store.completeReservation({
    partnerId,
    key,
    claimToken: `token-${i}`,
    reservation: { reservationId, partnerId, reservation, moneyAttached: false, createdAtMs: nowMs },
    responseStatus: 201,
    responseBody: reservation,
  });
  if (result.kind !== 'created') throw new Error(`unexpected completion ${result.kind}`);
  // Written only after the commit returned; stdout to a pipe is synchronous on Linux, so the parent never
  // sees a line for a reservation that was not yet committed.
  process.stdout.write(`completed ${reservationId} ${key}\n`);
}
await store.close();
