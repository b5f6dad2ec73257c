import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTcpProxy } from '../http/rate-limit/tcp-proxy.testkit.ts';
import { sharedControlState } from './control-state.ts';
import { PostgresStore } from './postgres.ts';
import { ControlWatch, type ControlWatchTiming } from './postgres-control-watch.ts';

/**
 * The PostgreSQL control watch (migration 5): instances answer from their copy of the control state, and a change is
 * answered only once no instance still trusts an older copy. Two stores in one process stand for two instances.
 */
const DATABASE = `control_watch_${process.pid}`;
const ADMIN = 'postgres://postgres@127.0.0.1:5432/test';
const URL = `postgres://postgres@127.0.0.1:5432/${DATABASE}`;
const TIMING: ControlWatchTiming = { leaseMs: 600, renewEveryMs: 100, marginMs: 150, retryMs: 50 };

const stores: PostgresStore[] = [];
const watches: ControlWatch[] = [];

async function admin<T>(run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: ADMIN });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

async function openStore(): Promise<PostgresStore> {
  const store = new PostgresStore(URL, {}, TIMING);
  stores.push(store);
  await store.migrate();
  return store;
}

const watchOf = (store: PostgresStore) => (store as unknown as { watch: ControlWatch }).watch;

async function until(condition: () => boolean, what: string, timeoutMs = 5_000): Promise<void> {
  const started = performance.now();
  while (!condition()) {
    if (performance.now() - started > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

beforeAll(async () => {
  await admin(async (client) => {
    await client.query(`DROP DATABASE IF EXISTS ${DATABASE}`);
    await client.query(`CREATE DATABASE ${DATABASE}`);
  });
});

afterAll(async () => {
  for (const watch of watches) await watch.stop();
  for (const store of stores) await store.close();
  await admin((client) => client.query(`DROP DATABASE IF EXISTS ${DATABASE} WITH (FORCE)`));
});

describe('PostgreSQL control watch', () => {
  it('a change answered on one instance is what the other answers next, from its copy', async () => {
    const a = await openStore();
    const b = await openStore();
    await until(() => watchOf(a).current() !== undefined && watchOf(b).current() !== undefined, 'both leases');
    // While b's copy is trusted, b must not read the row: the copy is the answer. A read while it is not trusted is
    // allowed (PostgresStore.getControlState): right after each change b's copy is untrusted until b has handled the
    // renewal that acknowledges it, and the writer may answer before that (it sees the acknowledgement in the
    // database, on a socket of its own), so how many calls land in that gap is the scheduler's choice. The store
    // decides synchronously and sends the read in the same turn, so "trusted at the moment the read is sent" is
    // exactly the rule, whatever the machine's load.
    const pool = (b as unknown as { pool: pg.Pool }).pool;
    const query = pool.query.bind(pool);
    let change = 0;
    const readsWhileTrusted: number[] = [];
    (pool as unknown as { query: unknown }).query = (...args: Parameters<typeof query>) => {
      const read = (args[0] as { name?: string }).name === 'read_control_state';
      if (read && watchOf(b).current() !== undefined) readsWhileTrusted.push(change);
      return query(...args);
    };
    for (let i = 1; i <= 25; i++) {
      change = i;
      const writer = i % 2 === 0 ? a : b;
      const reader = i % 2 === 0 ? b : a;
      await writer.updateControlState((s) => ({ ...s, clockOffsetMs: i }));
      // No await between the writer's answer and the read: nothing may have run on the reader's side meanwhile.
      const seen = reader.getControlState();
      expect((await seen).clockOffsetMs, `change ${i}`).toBe(i);
      expect((await b.getControlState()).clockOffsetMs).toBe(i);
    }
    expect(readsWhileTrusted, 'changes after which b read the row although its copy was trusted').toEqual([]);
    // The event the copy waits for: b's renewal acknowledged the last change, so b's copy holds it under lease.
    await until(() => watchOf(b).current()?.clockOffsetMs === 25, "b's copy of the last change under lease");
    // From its copy: the calls of one turn share the copy taken at the turn's end, after the poll phase (their
    // responses leave together, one wake-up of the peer); two calls reading the row would get two promises.
    const order: string[] = [];
    setImmediate(() => order.push('earlier immediate'));
    const first = b.getControlState();
    expect(b.getControlState()).toBe(first);
    await first.then((state) => order.push(`copy ${state.clockOffsetMs}`));
    expect(order).toEqual(['earlier immediate', 'copy 25']);
    expect(readsWhileTrusted).toEqual([]);
  });

  it('a lease the instance cannot renew holds the writer until it lapses, and the copy is not trusted after', async () => {
    const writer = await openStore();
    const proxy = await startTcpProxy('127.0.0.1', 5432);
    const watch = new ControlWatch(
      { connectionString: `postgres://postgres@127.0.0.1:${proxy.port}/${DATABASE}`, connectionTimeoutMillis: 300 },
      (text) => sharedControlState(text === undefined ? {} : JSON.parse(text)),
      TIMING,
    );
    watches.push(watch);
    watch.start();
    try {
      await until(() => watch.current() !== undefined, 'the lease through the proxy');
      proxy.freeze();
      const started = performance.now();
      await writer.updateControlState((s) => ({ ...s, apiDisabled: true }));
      const waited = performance.now() - started;
      expect(watch.current(), 'a copy without the change, after the change was answered').toBeUndefined();
      // The copy was trusted when the proxy froze, so the database's lease had at least the margin left (it ends a
      // lease after the send time the copy's trust counts from): a lower bound that load cannot break (a clock jump
      // could).
      expect(waited, 'the writer waited for the silent lease').toBeGreaterThan(TIMING.marginMs);
      // Released by the lapse (a lease behind is never extended), not by anything of the frozen connection's: TCP
      // would give up only after minutes. The writer's own round trips on a loaded machine take what they take, so
      // the bound is the lapse plus seconds of room, not a multiple of the lease.
      expect(waited).toBeLessThan(TIMING.leaseMs + 10_000);
    } finally {
      await proxy.cut();
    }
  });

  it('a lease is granted only on the current version, and a refusal brings the current row', async () => {
    await openStore();
    const db = new pg.Client({ connectionString: URL });
    await db.connect();
    try {
      const { rows } = await db.query<{ version: string }>('SELECT version FROM control_state WHERE id = 1');
      const current = Number(rows[0]?.version);
      const renew = (seen: number) =>
        db.query<{ current_version: string; current_state: string | null }>(
          'SELECT current_version, current_state FROM renew_control_lease($1, $2, 60000)',
          ['test-instance', seen],
        );
      const leases = async () =>
        (await db.query("SELECT seen_version FROM control_listeners WHERE instance_id = 'test-instance'")).rows;

      const refused = (await renew(current - 1)).rows[0];
      expect(Number(refused?.current_version)).toBe(current);
      expect(JSON.parse(refused?.current_state ?? 'null')).toMatchObject({ clockOffsetMs: expect.any(Number) });
      expect(await leases(), 'no lease on an old copy').toEqual([]);

      const granted = (await renew(current)).rows[0];
      expect(granted?.current_state).toBeNull();
      expect(await leases()).toEqual([{ seen_version: String(current) }]);

      // A lease behind is kept as it was, not extended (a writer waits for it until it lapses).
      await db.query("UPDATE control_listeners SET lease_until = now() + interval '1 second'");
      await db.query('UPDATE control_state SET version = version + 1 WHERE id = 1');
      await renew(current);
      const { rows: after } = await db.query<{ short: boolean }>(
        "SELECT lease_until < now() + interval '2 seconds' AS short FROM control_listeners WHERE instance_id = 'test-instance'",
      );
      expect(after).toEqual([{ short: true }]);
      await db.query("DELETE FROM control_listeners WHERE instance_id = 'test-instance'");
    } finally {
      await db.end();
    }
  });
});
