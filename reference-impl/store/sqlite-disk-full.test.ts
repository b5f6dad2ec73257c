import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SqliteStore } from './sqlite.ts';
import type { ClaimIdempotencyKeyInput } from './types.ts';

/**
 * The group commit of the SQLite store when the disk is full. `PRAGMA max_page_count` makes the file full
 * at a chosen size, so a statement meets SQLITE_FULL when it needs one more page, with no root and no real disk:
 * SQLite then rolls back the whole transaction of the group, and every write of the group must fail with it, none
 * committed on its own. (A tmpfs filled to the last byte is testing/disk-fault.test.ts.)
 */

const T0 = Date.UTC(2031, 0, 15, 10, 0, 0);

function claim(key: string, hashLength = 64): ClaimIdempotencyKeyInput {
  return {
    partnerId: 'P-1',
    key,
    requestHash: 'h'.repeat(hashLength),
    nowMs: T0,
    leaseMs: 30_000,
    retentionMs: 86_400_000,
    claimToken: `token-${key}`,
  };
}

describe('SQLite group commit on a full disk', () => {
  let store: SqliteStore;
  const keys = () =>
    store.database.prepare('SELECT idempotency_key FROM idempotency_keys ORDER BY idempotency_key').pluck().all();

  beforeEach(async () => {
    store = new SqliteStore(':memory:');
    await store.migrate();
    await store.claimIdempotencyKey(claim('k-0'));
  });
  afterEach(async () => {
    await store.close();
  });

  /** Only one more page may be used: a write needing several fails with SQLITE_FULL. */
  const fillDisk = () => {
    const pages = store.database.pragma('page_count', { simple: true }) as number;
    store.database.pragma(`max_page_count = ${pages + 1}`);
  };

  it('a write meeting SQLITE_FULL fails its whole group: nothing written, none committed on its own', async () => {
    fillDisk();
    const group = await Promise.allSettled([
      store.claimIdempotencyKey(claim('k-1')),
      store.claimIdempotencyKey(claim('k-2', 20_000)),
      store.claimIdempotencyKey(claim('k-3')),
      store.claimIdempotencyKey(claim('k-4')),
    ]);
    expect(group.map((r) => (r.status === 'rejected' ? (r.reason as { code?: string }).code : r.status))).toEqual([
      'SQLITE_FULL',
      'SQLITE_FULL',
      'SQLITE_FULL',
      'SQLITE_FULL',
    ]);
    expect(keys()).toEqual(['k-0']);
    expect(store.database.inTransaction).toBe(false);
  });

  it('once space returns, the same writes succeed', async () => {
    fillDisk();
    await expect(store.claimIdempotencyKey(claim('k-2', 20_000))).rejects.toMatchObject({ code: 'SQLITE_FULL' });
    store.database.pragma('max_page_count = 1073741823');
    await Promise.all([
      expect(store.claimIdempotencyKey(claim('k-1'))).resolves.toEqual({ kind: 'claimed' }),
      expect(store.claimIdempotencyKey(claim('k-2', 20_000))).resolves.toEqual({ kind: 'claimed' }),
    ]);
    expect(keys()).toEqual(['k-0', 'k-1', 'k-2']);
  });

  it('a write failing on its own (a constraint) still fails alone: the rest of its group is committed', async () => {
    const group = await Promise.allSettled([
      store.claimIdempotencyKey(claim('k-1')),
      store.recordStaffAlert({
        alertId: 'A-1',
        kind: 'cancellation_needs_staff',
        reservationId: 'R-missing',
        partnerId: 'P-1',
        reason: 'x',
        createdAtMs: T0,
      }),
      store.claimIdempotencyKey(claim('k-2')),
    ]);
    expect(group.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(keys()).toEqual(['k-0', 'k-1', 'k-2']);
  });
});
