import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { PartnerApiClient } from './booking-helpers.ts';
import { BookingStorm, FAULT_SEEN_MS } from './outage-storm.ts';
import { immutableEnforcedIn, mountSmallDisk, type SmallDisk, turnReadOnly } from './own-disk.ts';
import { sleep } from './own-services.ts';
import { HIGH_RATE_LIMIT, type SpawnedServer, spawnServer } from './spawn-server.ts';

/**
 * The embedded store when its disk fails under it (spec 7.3 DEPENDENCY_UNAVAILABLE): the SQLite file on a small tmpfs
 * that fills to the last byte, or the file turned read-only (immutable) while the server holds it open. Writes answer a
 * prompt 503 DEPENDENCY_UNAVAILABLE (never a 500), reads go on, nothing is corrupted (PRAGMA integrity_check), no
 * acknowledged booking is lost or doubled, and bookings succeed again once the space or the write access is back,
 * without a restart. Needs root (mount, chattr); without it the test says why and skips.
 */

const RECOVERY_MS = 15_000;
/** Room for the migrated store, the WAL of a short storm and the filler's last pages. */
const DISK_BYTES = 24 * 1024 * 1024;

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** The partnerReference of every reservation, read by a connection of the test's own. */
function referencesIn(file: string): string[] {
  const db = new Database(file, { readonly: true });
  try {
    return db.prepare('SELECT partner_reference FROM reservations').pluck().all() as string[];
  } finally {
    db.close();
  }
}

/** PRAGMA integrity_check by a new connection (which also recovers the WAL the server left). */
function integrityOf(file: string): string {
  const db = new Database(file);
  try {
    return db.pragma('integrity_check', { simple: true }) as string;
  } finally {
    db.close();
  }
}

/** How long the fault lasts once the first refusal came: long enough for every worker to retry a few times. */
const FAULT_MS = 1_000;

/**
 * Storm, fault, outage, repair, recovery, settlement, exactly-once; then, with the server stopped, the file is
 * checked. `fault` and `repair` act on the disk under the running server.
 */
async function stormThroughFault(
  server: SpawnedServer,
  file: string,
  fault: () => Promise<void> | void,
  repair: () => Promise<void> | void,
  label: string,
) {
  const client = new PartnerApiClient(server.url);
  const storm = new BookingStorm(client, await client.quote(), { workers: 3 });
  storm.start();
  try {
    await storm.waitForAcknowledged(10, 0, 20_000);
    const faultAt = Date.now();
    await fault();
    await storm.waitForRefusals(3, faultAt, FAULT_SEEN_MS);
    // Reads do not need the disk to take a byte: they go on.
    const list = await client.call('GET', '/reservations?limit=5', { as: 'partnerA' });
    expect(list.status, `a read during the fault: ${list.text}`).toBe(200);
    await sleep(FAULT_MS);
    await repair();
    const repairedAt = Date.now();
    const recoveredAt = await storm.waitForAcknowledged(10, repairedAt, RECOVERY_MS);
    await storm.stop();
    const during = storm.answers.filter((a) => a.sentAt >= faultAt && a.answeredAt <= repairedAt);
    expect(
      during.filter((a) => a.code === 'DEPENDENCY_UNAVAILABLE').length,
      `bookings refused 503 (${storm.summary()})`,
    ).toBeGreaterThan(0);
    const settled = await storm.settle();
    await storm.expectExactlyOnce(referencesIn(file));
    expect(server.child.exitCode, 'the reference was never restarted').toBeNull();
    await server.kill('SIGTERM');
    const integrity = integrityOf(file);
    expect(integrity).toBe('ok');
    console.log(
      `[${label}] ${storm.sent.size} keys, ${storm.acknowledged.size} acknowledged; answers: ${storm.summary()}; ` +
        `fault for ${repairedAt - faultAt} ms, bookings again ${recoveredAt - repairedAt} ms after the repair; ` +
        `${settled.retried} keys settled afterwards; integrity_check ${integrity}`,
    );
  } finally {
    await storm.stop();
  }
}

describe('SQLite store on a failing disk', () => {
  it('disk full (a small tmpfs filled to the last byte): 503, no corruption, recovery when space returns', async (ctx) => {
    const disk = await mountSmallDisk(DISK_BYTES);
    if ('unavailable' in disk) return ctx.skip(disk.unavailable);
    cleanups.push(() => (disk as SmallDisk).close());
    const file = join(disk.dir, 'reference.db');
    const server = await spawnServer({ DATABASE_URL: `sqlite:${file}`, ...HIGH_RATE_LIMIT });
    cleanups.push(() => server.kill('SIGKILL'));
    await stormThroughFault(
      server,
      file,
      () => disk.fill(),
      () => disk.free(),
      'SQLite disk full',
    );
  }, 90_000);

  it('the file turned read-only under the server: 503, no corruption, recovery when it is writable again', async (ctx) => {
    const dir = mkdtempSync(join(tmpdir(), 'own-readonly-'));
    cleanups.push(async () => rmSync(dir, { recursive: true, force: true }));
    const enforced = await immutableEnforcedIn(dir);
    if (enforced !== true) return ctx.skip(enforced.unavailable);
    const file = join(dir, 'reference.db');
    const server = await spawnServer({ DATABASE_URL: `sqlite:${file}`, ...HIGH_RATE_LIMIT });
    cleanups.push(() => server.kill('SIGKILL'));
    let readOnly: Awaited<ReturnType<typeof turnReadOnly>> | undefined;
    cleanups.push(async () => readOnly?.restore());
    await stormThroughFault(
      server,
      file,
      // The database and its WAL; the shared-memory index stays writable (it is mapped: SQLite would crash on it).
      async () => {
        readOnly = await turnReadOnly([file, `${file}-wal`]);
      },
      async () => {
        await readOnly?.restore();
        readOnly = undefined;
      },
      'SQLite read-only',
    );
  }, 90_000);
});
