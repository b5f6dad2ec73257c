import { describe, expect, it } from 'vitest';
import { TurnBatch } from './turn-batch.ts';

describe('TurnBatch', () => {
  it('runs the items of one turn in one call and answers each its own result, equal items kept apart', async () => {
    const calls: number[][] = [];
    const batch = new TurnBatch<number, string>(async (items) => {
      calls.push([...items]);
      return items.map((item, i) => `${item}@${i}`);
    });
    const answers = await Promise.all([batch.add(7), batch.add(7), batch.add(9)]);
    expect(calls).toEqual([[7, 7, 9]]);
    expect(answers).toEqual(['7@0', '7@1', '9@2']);
  });

  it('items of a later turn go in a call of their own, even while the first call is still running', async () => {
    const calls: number[][] = [];
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const batch = new TurnBatch<number, number>(async (items) => {
      calls.push([...items]);
      if (calls.length === 1) await held;
      return items;
    });
    const first = batch.add(1);
    await new Promise((resolve) => setImmediate(resolve));
    const second = batch.add(2);
    await new Promise((resolve) => setImmediate(resolve));
    expect(calls).toEqual([[1], [2]]);
    expect(await second).toBe(2);
    release();
    expect(await first).toBe(1);
  });

  it('splits a turn at maxItems', async () => {
    const sizes: number[] = [];
    const batch = new TurnBatch<number, number>(async (items) => {
      sizes.push(items.length);
      return items;
    }, 3);
    const answers = await Promise.all([1, 2, 3, 4, 5, 6, 7].map((n) => batch.add(n)));
    expect(answers).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(sizes).toEqual([3, 3, 1]);
  });

  it('a failed call fails every item of its batch, and only those', async () => {
    let calls = 0;
    const batch = new TurnBatch<number, number>((items) => {
      calls += 1;
      if (calls === 1) throw new Error('connection lost');
      return Promise.resolve(items);
    });
    const failed = Promise.allSettled([batch.add(1), batch.add(2)]);
    expect((await failed).map((r) => r.status)).toEqual(['rejected', 'rejected']);
    expect(await batch.add(3)).toBe(3);
  });

  it('a call answering the wrong number of results fails its items instead of answering them wrongly', async () => {
    const batch = new TurnBatch<number, number>(async () => [1]);
    const settled = await Promise.allSettled([batch.add(1), batch.add(2)]);
    expect(settled.every((r) => r.status === 'rejected')).toBe(true);
  });

  it('with maxRunning, items that arrive while a call runs wait and go together in the next call', async () => {
    const calls: number[][] = [];
    const releases: (() => void)[] = [];
    const batch = new TurnBatch<number, number>(
      async (items) => {
        calls.push([...items]);
        await new Promise<void>((resolve) => releases.push(resolve));
        return items;
      },
      100,
      1,
    );
    const first = batch.add(1);
    await new Promise((resolve) => setImmediate(resolve));
    const later = [batch.add(2)];
    await new Promise((resolve) => setImmediate(resolve));
    later.push(batch.add(3));
    await new Promise((resolve) => setImmediate(resolve));
    expect(calls).toEqual([[1]]);
    releases[0]?.();
    expect(await first).toBe(1);
    await new Promise((resolve) => setImmediate(resolve));
    expect(calls).toEqual([[1], [2, 3]]);
    releases[1]?.();
    expect(await Promise.all(later)).toEqual([2, 3]);
  });

  it('with maxRunning, a failed call still lets the waiting items run', async () => {
    let calls = 0;
    let fail: (error: Error) => void = () => {};
    const batch = new TurnBatch<number, number>(
      (items) => {
        calls += 1;
        if (calls === 1) return new Promise((_, reject) => (fail = reject));
        return Promise.resolve(items);
      },
      100,
      1,
    );
    const first = batch.add(1);
    await new Promise((resolve) => setImmediate(resolve));
    const second = batch.add(2);
    fail(new Error('statement timeout'));
    await expect(first).rejects.toThrow('statement timeout');
    expect(await second).toBe(2);
  });
});
