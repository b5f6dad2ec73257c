import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SqliteStore } from './sqlite.ts';

/**
 * The SQLite store's control reads (`getControlState`): the calls of one turn of the event loop share one
 * PRAGMA data_version, taken after the last of them, so none is answered from a state older than its call.
 */
let dir: string;
let store: SqliteStore;

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'sqlite-control-read-'));
  store = new SqliteStore(join(dir, 'store.db'));
  await store.migrate();
});

afterEach(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Counts the store's PRAGMA data_version reads (the statement is prepared on the first read). */
function countVersionReads(target: SqliteStore): () => number {
  const internals = target as unknown as { dataVersion: { get(): unknown } };
  const statement = internals.dataVersion;
  let reads = 0;
  internals.dataVersion = {
    get: () => {
      reads += 1;
      return statement.get();
    },
  };
  return () => reads;
}

const turn = () => new Promise((resolve) => setImmediate(resolve));

describe('SqliteStore.getControlState: one read a turn, none older than its call', () => {
  it('the calls of one turn share one read; a call of a later turn makes its own', async () => {
    await store.getControlState();
    const reads = countVersionReads(store);
    const states = await Promise.all(Array.from({ length: 10 }, () => store.getControlState()));
    expect(reads()).toBe(1);
    expect(new Set(states).size).toBe(1);
    await turn();
    await store.getControlState();
    expect(reads()).toBe(2);
  });

  it("another connection's commit made before a call, in the same turn as earlier calls, is seen by all of them", async () => {
    await store.getControlState();
    const before = store.getControlState();
    // Another process's commit, made synchronously within this turn: after the first call, before the second.
    const direct = new Database(join(dir, 'store.db'));
    try {
      direct.prepare('UPDATE control_state SET state = ? WHERE id = 1').run(JSON.stringify({ clockOffsetMs: 7_000 }));
    } finally {
      direct.close();
    }
    const after = store.getControlState();
    expect((await after).clockOffsetMs).toBe(7_000);
    expect([0, 7_000]).toContain((await before).clockOffsetMs);
  });

  it('a read on a closed store rejects its callers', async () => {
    await store.getControlState();
    const pending = store.getControlState();
    await store.close();
    await expect(pending).rejects.toThrow();
    store = new SqliteStore(join(dir, 'store.db'));
  });
});
