import { describe, expect, it } from 'vitest';
import { PostgresStore } from './postgres.ts';

/**
 * The PostgreSQL store's shared control reads (`getControlState`), against a stand-in pool whose reads the test
 * answers one by one: a call may share a read only if that read was sent after the call was made.
 */
function storeWithFakePool() {
  const sent: { resolve: (offset: number) => void }[] = [];
  const store = new PostgresStore('postgresql://unused@127.0.0.1:1/unused');
  const pool = {
    query: () =>
      new Promise((resolve) => {
        sent.push({ resolve: (offset) => resolve({ rows: [{ state: JSON.stringify({ clockOffsetMs: offset }) }] }) });
      }),
    end: async () => {},
  };
  // The real pool never connected (pg connects lazily); closed before it is replaced.
  const real = (store as unknown as { pool: { end(): Promise<void> } }).pool;
  void real.end();
  (store as unknown as { pool: unknown }).pool = pool;
  return { store, sent };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('PostgresStore.getControlState: shared reads, none older than its call', () => {
  it('a call made while a read is in flight waits for the next read, which the calls made meanwhile share', async () => {
    const { store, sent } = storeWithFakePool();
    const first = store.getControlState();
    expect(sent).toHaveLength(1);
    const later = [store.getControlState(), store.getControlState(), store.getControlState()];
    expect(sent).toHaveLength(1);
    sent[0]?.resolve(1);
    expect((await first).clockOffsetMs).toBe(1);
    await tick();
    // The next read went out only now, after the three calls: they share it.
    expect(sent).toHaveLength(2);
    sent[1]?.resolve(2);
    for (const state of await Promise.all(later)) expect(state.clockOffsetMs).toBe(2);
    expect(sent).toHaveLength(2);
  });

  it('a failed read fails its callers only; the calls queued behind it get a read of their own', async () => {
    const { store, sent } = storeWithFakePool();
    const pool = (store as unknown as { pool: { query: () => Promise<unknown> } }).pool;
    const realQuery = pool.query;
    pool.query = () => Promise.reject(new Error('connection lost'));
    const failing = store.getControlState();
    pool.query = realQuery;
    const queued = store.getControlState();
    await expect(failing).rejects.toThrow('connection lost');
    await tick();
    expect(sent).toHaveLength(1);
    sent[0]?.resolve(7);
    expect((await queued).clockOffsetMs).toBe(7);
  });

  it('calls made after a read ended start a new one', async () => {
    const { store, sent } = storeWithFakePool();
    const first = store.getControlState();
    sent[0]?.resolve(1);
    await first;
    await tick();
    const second = store.getControlState();
    expect(sent).toHaveLength(2);
    sent[1]?.resolve(3);
    expect((await second).clockOffsetMs).toBe(3);
  });

  it('an unchanged row gives the same frozen state; a changed one a new state', async () => {
    const { store, sent } = storeWithFakePool();
    const read = async (offset: number) => {
      const call = store.getControlState();
      sent.at(-1)?.resolve(offset);
      const state = await call;
      await tick();
      return state;
    };
    const first = await read(5);
    expect(Object.isFrozen(first)).toBe(true);
    expect(await read(5)).toBe(first);
    const changed = await read(6);
    expect(changed).not.toBe(first);
    expect(changed.clockOffsetMs).toBe(6);
  });
});
