import { describe, expect, it } from 'vitest';
import { mapAtMost } from './map-at-most.ts';

const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

describe('mapAtMost', () => {
  it('runs every item, at most `jobs` at a time, and keeps the item order', async () => {
    let running = 0;
    let most = 0;
    const out = await mapAtMost([1, 2, 3, 4, 5], 2, async (n) => {
      running += 1;
      most = Math.max(most, running);
      await tick();
      running -= 1;
      return n * 10;
    });
    expect(out).toEqual([10, 20, 30, 40, 50]);
    expect(most).toBe(2);
  });

  it('starts nothing after an abort and leaves out the runs the abort cut short', async () => {
    const controller = new AbortController();
    const started: number[] = [];
    const out = await mapAtMost(
      [1, 2, 3, 4, 5],
      2,
      async (n) => {
        started.push(n);
        await tick();
        if (n === 3) controller.abort();
        return n;
      },
      controller.signal,
    );
    // 1 and 2 ended before the abort; 3 (which aborted) and 4 (under way then) ended after it; 5 never started.
    expect(out).toEqual([1, 2]);
    expect(started).toEqual([1, 2, 3, 4]);
  });
});
